"""The port between the service and its database for what every command does: find and
lock its game, read the seats, write the log entry with its outbox rows and the game's new
snapshot. Everything else the service reads and writes goes through the ORM's public API."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from tortoise.models import Model

from core.engine.ids import PlayerId
from core.storage.models import GameRecord, Identity

from ...ports.contract import Incoming
from ..unit_of_work import UnitOfWork


class GameRepository(Protocol):
    """A game's rows as one command needs them, each in as few statements as the database
    allows (on PostgreSQL two for a whole command: `arrive` and `save_game`)."""

    async def arrive(self, incoming: Incoming, work: UnitOfWork) -> bool | None:
        """Mark the update processed: False for a duplicate, True for a new one, whose
        sender, chat, chat's game (locked) and its seats are then in `work`; None where
        this is not done in one statement (the caller marks it and asks for each)."""

    async def lock_game(self, game_id: int) -> GameRecord | None:
        """The game's row, without its snapshot, locked until the transaction ends."""

    async def chat_game(self, chat_id: int, statuses: Sequence[str],
                        lock: bool) -> GameRecord | None:
        """The chat's first game in one of `statuses`, without its snapshot; with `lock`
        locked as `lock_game`."""

    async def seats(self, game_id: int) -> dict[PlayerId, Identity]:
        """Who sits in which active seat, by engine player id, in the order they were taken."""

    async def snapshot(self, game_id: int) -> Any:
        """The game's stored snapshot (None before it started)."""

    async def log(self, game_id: int) -> list[Any]:
        """The game's logged commands as stored, in order."""

    async def write(self, rows: Sequence[Model]) -> None:
        """Insert new rows, those of one table in the order given (their ids keep it)."""

    async def save_game(self, row: GameRecord, rows: list[Model]) -> None:
        """The game row's update (every field but its id and creation time) with the new
        `rows` inserted first; `rows` is emptied."""

    def refreshed(self, row: GameRecord, fresh: GameRecord) -> None:
        """Bring a row read earlier up to date with `fresh`, read under the lock (its
        snapshot is read again when next needed)."""
