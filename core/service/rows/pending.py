"""Rows a command's transaction writes and nobody reads back inside it (outbox rows,
buttons, the log entry), gathered in its unit of work and written together: on PostgreSQL
with the game row's update in one statement (`GameRepository.save_game`), the round trips a
command costs being most of its time.

Only inside a `unit_of_work.command_scope` (one transaction): outside one, a row is written
at once. Whatever reads outbox rows inside a transaction calls `flush` first, and every
transaction that opened a scope flushes before it commits (`GameService`); the scope
refuses to end with rows left unwritten. Order is kept: rows of one table are inserted in
the order they were added (their ids say the outbox's order)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tortoise.models import Model

from core.storage.models import GameRecord

from .repository import repository
from .unit_of_work import current_work


async def add(instance: Model) -> None:
    """Write `instance` (a new row) with the transaction's next flush, or now outside a
    command's scope."""
    work = current_work()
    if work is None:
        await instance.save()
    else:
        work.pending.append(instance)


async def flush() -> None:
    """Write what waits (before a read of these tables, and before the commit)."""
    work = current_work()
    if work is None or not work.pending:
        return
    taken = list(work.pending)
    work.pending.clear()
    await repository().write(taken)


@asynccontextmanager
async def writing() -> AsyncIterator[None]:
    """Inside a transaction: what waits is written when the block ends normally (also by
    `return` or `continue`), before the transaction commits."""
    yield
    await flush()


async def save_game(row: GameRecord) -> None:
    """The game row's update, with everything that waits (see `GameRepository.save_game`)."""
    work = current_work()
    await repository().save_game(row, [] if work is None else work.pending)
