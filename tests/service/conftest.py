"""Storage tests run against SQLite (a temporary file) and the machine's real PostgreSQL
(127.0.0.1:5432, database `test`, reset before each test)."""

from __future__ import annotations

import asyncio
import os

import asyncpg
import pytest

from core.storage.db import close_db

POSTGRES = os.environ.get("NIGHTFALL_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432/test")


async def reset_postgres() -> None:
    conn = await asyncpg.connect(POSTGRES)
    try:
        await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite://{tmp_path / 'nightfall.sqlite3'}"
    else:
        await reset_postgres()
        yield POSTGRES
    await close_db()
    await asyncio.sleep(0)
