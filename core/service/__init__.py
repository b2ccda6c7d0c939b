"""The game service: lobby, persistence, deadlines and delivery around the pure engine."""
