"""Rows a command's transaction writes and nobody reads back inside it (outbox rows,
buttons, the log entry), gathered and written together: on PostgreSQL with the game row's
update in one statement, the round trips a command costs being most of its time.

Only inside a `scope.command_scope` (one transaction): outside one, a row is written at
once. Whatever reads outbox rows inside a transaction calls `flush` first, and every
transaction that opened a scope flushes before it commits (`GameService`); the scope
refuses to end with rows left unwritten. Order is kept: rows of one table are inserted in
the order they were added (their ids say the outbox's order)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache
from typing import Any

from tortoise import connections
from tortoise.fields import Field
from tortoise.models import Model

from core.storage.models import GameRecord

from .scope import memo

KEY = "pending"
MAX_PARAMETERS = 30_000  # PostgreSQL takes at most 32,767 in one statement


def _rows() -> list[Model] | None:
    known = memo()
    return None if known is None else known.setdefault(KEY, [])


async def add(instance: Model) -> None:
    """Write `instance` (a new row) with the transaction's next flush, or now outside a
    command's scope."""
    rows = _rows()
    if rows is None:
        await instance.save()
    else:
        rows.append(instance)


async def flush() -> None:
    """Write what waits (before a read of these tables, and before the commit)."""
    rows = _rows()
    if not rows:
        return
    taken = list(rows)
    rows.clear()
    by_model: dict[type[Model], list[Model]] = {}
    for instance in taken:
        by_model.setdefault(type(instance), []).append(instance)
    for model, instances in by_model.items():
        await model.bulk_create(instances)


@asynccontextmanager
async def writing() -> AsyncIterator[None]:
    """Inside a transaction: what waits is written when the block ends normally (also by
    `return` or `continue`), before the transaction commits."""
    yield
    await flush()


def unwritten() -> int:
    """How many rows wait (a scope must end with none)."""
    rows = _rows()
    return 0 if rows is None else len(rows)


async def save_game(row: GameRecord) -> None:
    """The game row's update, with everything that waits: on PostgreSQL one statement
    (each insert a data-modifying WITH query, the update last), elsewhere the inserts in
    bulk and then the update."""
    rows = _rows()
    conn = connections.get("default")
    if not rows or conn.capabilities.dialect != "postgres":
        await flush()
        await row.save(update_fields=game_fields())
        return
    values: list[Any] = []
    inserts = []
    by_model: dict[type[Model], list[Model]] = {}
    for instance in rows:
        by_model.setdefault(type(instance), []).append(instance)
    for model, instances in by_model.items():
        fields = _insert_fields(model)
        columns = ", ".join(f'"{model._meta.fields_db_projection[name]}"' for name, _ in fields)
        tuples = []
        for instance in instances:
            marks = []
            for name, field in fields:
                values.append(field.to_db_value(getattr(instance, name), instance))
                marks.append(f"${len(values)}")
            tuples.append(f"({', '.join(marks)})")
        inserts.append(f'w{len(inserts)} AS (INSERT INTO "{model._meta.db_table}" '
                       f'({columns}) VALUES {", ".join(tuples)})')
    if len(values) > MAX_PARAMETERS:
        await flush()
        await row.save(update_fields=game_fields())
        return
    rows.clear()
    sets = []
    for name in game_fields():
        field = GameRecord._meta.fields_map[name]
        values.append(field.to_db_value(getattr(row, name), row))
        sets.append(f'"{GameRecord._meta.fields_db_projection[name]}" = ${len(values)}')
    values.append(row.pk)
    await conn.execute_query(f"WITH {', '.join(inserts)} UPDATE \"game\" SET {', '.join(sets)} "
                             f'WHERE "id" = ${len(values)}', values)


@cache
def _insert_fields(model: type[Model]) -> tuple[tuple[str, Field[Any]], ...]:
    """The fields an INSERT of the model writes (not its generated id), with their field
    objects (asked once per model)."""
    meta = model._meta
    return tuple((name, meta.fields_map[name]) for name in meta.fields_db_projection
                 if not meta.fields_map[name].generated)


@cache
def game_fields() -> tuple[str, ...]:
    """What a game row's save writes: every field but its id and its creation time (named,
    as a row read without its snapshot can only be saved field by field)."""
    meta = GameRecord._meta
    return tuple(name for name in meta.fields_db_projection
                 if name not in (meta.pk_attr, "created_at"))
