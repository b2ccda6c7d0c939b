"""How a game lives in the database: its rows locked and replayed, what one command's
transaction reads once and writes together, an update's arrival, the adapters' tables.
Above `ports`."""
