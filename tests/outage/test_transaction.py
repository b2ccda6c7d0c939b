"""Our transaction context (core/storage/transaction.py) against a backend killed under it:
the task's connection variable is reset and the broken connection ended, so the task's next
transaction and query work (tortoise's own context kept pointing at the lost connection).
tortoise's own `in_transaction` (its get_or_create uses it) goes the same way on PostgreSQL."""

from __future__ import annotations

import asyncpg
import pytest
from tortoise import connections
from tortoise.backends.asyncpg.client import TransactionWrapper
from tortoise.transactions import in_transaction

from core.storage.db import close_db, database_unavailable, open_db
from core.storage.models import Chat
from core.storage.pgclient import SafeAsyncpgClient
from core.storage.transaction import transaction


async def test_a_commit_on_a_killed_backend_poisons_nothing(postgres):
    url = await postgres.new_database()
    await open_db(url)
    try:
        with pytest.raises(Exception) as failed:
            async with transaction() as conn:
                await Chat.create(platform="test", ref="lost")
                _, rows = await conn.execute_query("SELECT pg_backend_pid() AS pid")
                killer = await asyncpg.connect(postgres.server)
                await killer.execute("SELECT pg_terminate_backend($1)", rows[0]["pid"])
                await killer.close()
        assert database_unavailable(failed.value)
        assert type(connections.get("default")) is SafeAsyncpgClient  # not the lost wrapper
        async with transaction():
            await Chat.create(platform="test", ref="kept")
        assert [c.ref for c in await Chat.all()] == ["kept"]
    finally:
        await close_db()


async def test_a_failed_begin_poisons_nothing(postgres, monkeypatch):
    url = await postgres.new_database()
    await open_db(url)
    try:
        async def refuse(self):  # failure injection: the backend dies at BEGIN
            raise asyncpg.ConnectionDoesNotExistError("connection was closed")

        with monkeypatch.context() as patched:
            patched.setattr(TransactionWrapper, "begin", refuse)
            with pytest.raises(asyncpg.ConnectionDoesNotExistError):
                async with transaction():
                    raise AssertionError("the body must not run")
            with pytest.raises(asyncpg.ConnectionDoesNotExistError):
                async with in_transaction():  # what tortoise's get_or_create opens
                    raise AssertionError("the body must not run")
        assert type(connections.get("default")) is SafeAsyncpgClient
        async with transaction():
            await Chat.create(platform="test", ref="after")
        assert await Chat.all().count() == 1
    finally:
        await close_db()
