"""What one command's transaction has already read, so that it is read once: the game's
seats with their identities (asked for by the roster, the delivery, the keyboards...).

The memo lives exactly as long as the transaction (`command_scope`, opened by the service
around each one): nothing in it outlives a rollback or is seen by another command, so it can
never be stale against another worker's writes (the game row is locked for the whole
transaction). Whatever writes seats says so (`forget_seats`). Outside a scope (a test
calling a room directly) nothing is remembered."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_memo: ContextVar[dict[Any, Any] | None] = ContextVar("nightfall_command_memo", default=None)


@contextmanager
def command_scope() -> Iterator[None]:
    """One command's memo, for the length of its transaction."""
    token = _memo.set({})
    try:
        yield
        if _memo.get().get("pending"):  # type: ignore[union-attr]
            raise RuntimeError("rows of a command were never written (see pending.py)")
    finally:
        _memo.reset(token)


def memo() -> dict[Any, Any] | None:
    """The open command's memo (None outside one)."""
    return _memo.get()


def forget_seats(game_id: int) -> None:
    """The game's seats changed in this transaction: read them again when next asked."""
    known = _memo.get()
    if known is not None:
        known.pop(("seats", game_id), None)
