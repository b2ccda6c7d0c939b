"""The repository on PostgreSQL, where each statement is a round trip and the round trips
are most of a command's time: a command costs two statements, its arrival and its save.

The arrival is the server-side function `nightfall_arrive` (migration 0008): it marks the
update processed (or finds it a duplicate), reads its chat, locks the chat's game (in its
lobby or running) as `chat_game` locks it, then reads the sender and the game's seats, each
after the lock, so as the lock's last holder left them. The game is locked first, before
anything of the command is written, in the order every command and deadline takes (the
game, then what hangs from it).

The save is one statement too: the new rows (the log entry, outbox rows, buttons), each
table's insert a data-modifying WITH query, and the game row's update last."""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson
from tortoise.fields import Field
from tortoise.models import Model

from core.storage.models import GameRecord

from ...ports.contract import Incoming
from ..unit_of_work import UnitOfWork
from .sql import (
    SqlRepository,
    chat_from_db,
    connection,
    game_fields,
    game_from_db,
    identity_from_db,
)

ARRIVE = "SELECT nightfall_arrive($1, $2, $3, $4) AS arrived"
MAX_PARAMETERS = 30_000  # PostgreSQL takes at most 32,767 in one statement


class PostgresRepository(SqlRepository):
    """Row locks held to the transaction's end: commands for one game are applied one at a
    time, whichever worker has them."""

    LOCK = " FOR UPDATE"

    @staticmethod
    def mark(n: int) -> str:
        return f"${n}"

    async def arrive(self, incoming: Incoming, work: UnitOfWork) -> bool | None:
        chat_ref = None if incoming.chat is None else str(incoming.chat)
        _, rows = await connection().execute_query(
            ARRIVE, [incoming.platform, incoming.update_id, incoming.user.id, chat_ref])
        found: dict[str, Any] = orjson.loads(rows[0]["arrived"])
        if not found["fresh"]:
            return False
        if found["person"] is not None:
            work.identities[incoming.platform, incoming.user.id] = \
                identity_from_db(found["person"])
        if chat_ref is not None and found["chat"] is not None:
            work.chats[incoming.platform, chat_ref] = chat_from_db(found["chat"])
        if found["game"] is not None:
            row = game_from_db(found["game"])
            work.arrived_game = row
            work.seats[row.id] = {seat["pid"]: identity_from_db(seat["identity"])
                                  for seat in found["seats"]}
        return True

    async def save_game(self, row: GameRecord, rows: list[Model]) -> None:
        if not rows:
            await super().save_game(row, rows)
            return
        values: list[Any] = []
        inserts: list[str] = []
        by_model: dict[type[Model], list[Model]] = {}
        for instance in rows:
            by_model.setdefault(type(instance), []).append(instance)
        for model, instances in by_model.items():
            fields = _insert_fields(model)
            names = ", ".join(f'"{model._meta.fields_db_projection[name]}"'
                              for name, _ in fields)
            tuples = []
            for instance in instances:
                marks = []
                for name, field in fields:
                    values.append(field.to_db_value(getattr(instance, name), instance))
                    marks.append(f"${len(values)}")
                tuples.append(f"({', '.join(marks)})")
            inserts.append(f'w{len(inserts)} AS (INSERT INTO "{model._meta.db_table}" '
                           f'({names}) VALUES {", ".join(tuples)})')
        if len(values) > MAX_PARAMETERS:
            await super().save_game(row, rows)
            return
        rows.clear()
        sets = []
        for name in game_fields():
            field = GameRecord._meta.fields_map[name]
            values.append(field.to_db_value(getattr(row, name), row))
            sets.append(f'"{GameRecord._meta.fields_db_projection[name]}" = ${len(values)}')
        values.append(row.pk)
        await connection().execute_query(
            f"WITH {', '.join(inserts)} UPDATE \"game\" SET {', '.join(sets)} "
            f'WHERE "id" = ${len(values)}', values)


@cache
def _insert_fields(model: type[Model]) -> tuple[tuple[str, Field[Any]], ...]:
    """The fields an INSERT of the model writes (not its generated id), with their field
    objects (asked once per model)."""
    meta = model._meta
    return tuple((name, meta.fields_map[name]) for name in meta.fields_db_projection
                 if not meta.fields_map[name].generated)
