"""What both repositories share: the command path's reads written out in SQL (building them
through the ORM cost more processor time than the rest of a command), and the rows they
read made into model objects. The only module with tortoise's private calls, and the
PostgreSQL and SQLite ones: each writes its statements in its own dialect."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from core.engine.ids import PlayerId
from core.storage.models import Chat, GameRecord, Identity, LogEntry

# what a row brought up to date under its lock takes from the fresh one (`refreshed`)
CHANGING = ("status", "version", "window", "settings", "setup", "paused_left")


def connection() -> BaseDBAsyncClient:
    """The task's connection: its transaction's, inside one."""
    client: BaseDBAsyncClient = connections.get("default")
    return client


def columns(model: type[Model], alias: str) -> str:
    return ", ".join(f'{alias}."{c}"' for c in model._meta.fields_db_projection.values())


# A game row as the command path reads it (`game_columns`): without its snapshot, which is
# only needed when the game is not held in memory at the row's version (`snapshot`); read,
# it was a third of the lock's round trip (about 9 KB of JSON out of the database, decoded).
@cache
def game_columns() -> str:
    """(Asked once tortoise knows the models: their foreign keys' columns come with that.)"""
    return ", ".join(f'g."{c}"' for c in GameRecord._meta.fields_db_projection.values()
                     if c != "snapshot")


@cache
def game_fields() -> tuple[str, ...]:
    """What a game row's save writes: every field but its id and its creation time (named,
    as a row read without its snapshot can only be saved field by field)."""
    meta = GameRecord._meta
    return tuple(name for name in meta.fields_db_projection
                 if name not in (meta.pk_attr, "created_at"))


def game_from_db(data: dict[str, Any]) -> GameRecord:
    """A row of `game_columns()`: its snapshot unread, and the row partial, so that it can only
    be saved field by field (a whole save would need the snapshot it does not have). As
    JSON (`nightfall_arrive`) its time is a string: read here by the standard library's
    parser, many times faster than tortoise's."""
    created = data.get("created_at")
    if isinstance(created, str):
        data = {**data, "created_at": datetime.fromisoformat(created)}
    row = GameRecord._init_from_db(**data, snapshot=None)
    _unread_snapshot(row)
    return row


def _unread_snapshot(row: GameRecord) -> None:
    """Forget the row's snapshot (read again when asked) and keep the row partial."""
    row.__dict__.pop("snapshot", None)
    object.__setattr__(row, "_partial", True)


def has_snapshot(row: GameRecord) -> bool:
    """Whether the row was read with its snapshot (or was given one since)."""
    return "snapshot" in row.__dict__


def identity_from_db(data: dict[str, Any]) -> Identity:
    return Identity._init_from_db(**data)


def chat_from_db(data: dict[str, Any]) -> Chat:
    return Chat._init_from_db(**data)


class SqlRepository:
    """The reads of `GameRepository`, in the dialect of a subclass: its parameter marks
    (`mark`) and its row lock (`LOCK`, nothing where the database has one writer)."""

    LOCK = ""

    @staticmethod
    def mark(n: int) -> str:
        raise NotImplementedError

    async def _select(self, sql: str, values: Sequence[Any]) -> list[dict[str, Any]]:
        _, rows = await connection().execute_query(sql, list(values))
        return [dict(r) for r in rows]

    async def lock_game(self, game_id: int) -> GameRecord | None:
        rows = await self._select(f"SELECT {game_columns()} FROM game g "
                                  f"WHERE g.id = {self.mark(1)}{self.LOCK}", [game_id])
        return game_from_db(rows[0]) if rows else None

    async def chat_game(self, chat_id: int, statuses: Sequence[str],
                        lock: bool) -> GameRecord | None:
        # the first lobby or running game of the chat: also the first of any of these
        # statuses when its own status is one of them (a chat has one game at a time anyway)
        marks = ", ".join(self.mark(n) for n in range(2, len(statuses) + 2))
        rows = await self._select(f"SELECT {game_columns()} FROM game g "
                                  f"WHERE g.chat_id = {self.mark(1)} AND g.status IN ({marks}) "
                                  "ORDER BY g.id LIMIT 1" + (self.LOCK if lock else ""),
                                  [chat_id, *statuses])
        return game_from_db(rows[0]) if rows else None

    async def seats(self, game_id: int) -> dict[PlayerId, Identity]:
        rows = await self._select(f"SELECT s.pid AS seat_pid, {columns(Identity, 'i')} "
                                  "FROM seat s JOIN identity i ON i.id = s.identity_id "
                                  f"WHERE s.game_id = {self.mark(1)} AND s.active ORDER BY s.id",
                                  [game_id])
        found: dict[PlayerId, Identity] = {}
        for seat in rows:
            pid = seat.pop("seat_pid")
            found[PlayerId(pid)] = identity_from_db(seat)
        return found

    async def snapshot(self, game_id: int) -> Any:
        rows = await self._select(f"SELECT g.snapshot FROM game g WHERE g.id = {self.mark(1)}",
                                  [game_id])
        field = GameRecord._meta.fields_map["snapshot"]
        return field.to_python_value(rows[0]["snapshot"]) if rows else None

    async def log(self, game_id: int) -> list[Any]:
        return [entry.command for entry in await LogEntry.filter(game_id=game_id)
                .order_by("seq")]

    async def write(self, rows: Sequence[Model]) -> None:
        by_model: dict[type[Model], list[Model]] = {}
        for instance in rows:
            by_model.setdefault(type(instance), []).append(instance)
        for model, instances in by_model.items():
            await model.bulk_create(instances)

    async def save_game(self, row: GameRecord, rows: list[Model]) -> None:
        taken = list(rows)
        rows.clear()
        await self.write(taken)
        await row.save(update_fields=game_fields())

    def refreshed(self, row: GameRecord, fresh: GameRecord) -> None:
        for name in CHANGING:
            setattr(row, name, getattr(fresh, name))
        _unread_snapshot(row)
