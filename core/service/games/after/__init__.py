"""The reactors that run after a command the engine accepted, one module each, in the order
games/reactions.py gives them; each reads the `Applied` record and what the process holds."""
