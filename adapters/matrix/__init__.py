"""The Matrix adapter: matrix-nio, thin over the game service."""
