"""The Matrix protocol as the bot reads and writes it, with no I/O: event contents, commands,
polls, names, power-level maths, error classification, the events waiting for their keys, and
what the bot knows of its rooms (`RoomState`, driven by event dicts; it returns what changed
instead of calling anyone). Nothing here knows the client, the store or the adapter."""
