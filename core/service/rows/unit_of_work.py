"""What one command's transaction has already read, so that it is read once, and the rows
it writes together at its end: a typed record, one per transaction.

It lives exactly as long as the transaction (`command_scope`, opened by the service around
each one): nothing in it outlives a rollback or is seen by another command, so it can never
be stale against another worker's writes (the game row is locked for the whole
transaction). Whatever writes seats says so (`forget_seats`). Outside a scope (a test
calling a room directly) nothing is remembered, and a new row is written at once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from tortoise.models import Model

from core.engine.ids import PlayerId
from core.storage.models import Button, Chat, GameRecord, Identity


@dataclass
class UnitOfWork:
    """One command's reads, each of one kind, and its writes still to come."""

    # the game row the update's first statement locked (`GameRepository.arrive`), handed to
    # the first that asks for that game; later asks read the row again
    arrived_game: GameRecord | None = None
    # every game row this command read, by id: for what needs only its id and rule set
    games: dict[int, GameRecord] = field(default_factory=dict)
    # who sits in which seat of a game (its engine player ids, in the order they were taken)
    seats: dict[int, dict[PlayerId, Identity]] = field(default_factory=dict)
    # the stored button behind a pressed token (None: a token nobody made); never changes
    buttons: dict[str, Button | None] = field(default_factory=dict)
    # the sender and the chat as the arrival read them, by (platform, ref); each taken once
    identities: dict[tuple[str, str], Identity] = field(default_factory=dict)
    chats: dict[tuple[str, str], Chat] = field(default_factory=dict)
    # new rows nobody reads back inside the transaction (outbox rows, buttons, the log
    # entry), written together: with the game row's update, or before a read of their tables
    pending: list[Model] = field(default_factory=list)

    def take_arrived(self, wanted: Callable[[GameRecord], bool]) -> GameRecord | None:
        """The game row the arrival locked, if it is the one `wanted`: handed to the first
        that asks for it; later asks read the row again, as they always did."""
        row = self.arrived_game
        if row is None or not wanted(row):
            return None
        self.arrived_game = None
        return row

    def take_identity(self, platform: str, ref: str) -> Identity | None:
        """The sender as the arrival read him (once: he may be changed and saved after)."""
        return self.identities.pop((platform, ref), None)

    def take_chat(self, platform: str, ref: str) -> Chat | None:
        """The chat as the arrival read it (once, as the sender)."""
        return self.chats.pop((platform, ref), None)


_current: ContextVar[UnitOfWork | None] = ContextVar("nightfall_unit_of_work", default=None)


@contextmanager
def command_scope() -> Iterator[UnitOfWork]:
    """One command's unit of work, for the length of its transaction; it must end with
    every row it gathered written."""
    work = UnitOfWork()
    token = _current.set(work)
    try:
        yield work
        if work.pending:
            raise RuntimeError("rows of a command were never written (see rows/pending.py)")
    finally:
        _current.reset(token)


def current_work() -> UnitOfWork | None:
    """The open command's unit of work (None outside one)."""
    return _current.get()


def forget_seats(game_id: int) -> None:
    """The game's seats changed in this transaction: read them again when next asked."""
    work = _current.get()
    if work is not None:
        work.seats.pop(game_id, None)
