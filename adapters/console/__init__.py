"""The console adapter: a whole group chat in a terminal, no accounts needed."""

from .session import ConsoleSession

__all__ = ["ConsoleSession"]
