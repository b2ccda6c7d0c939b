"""Storage tests run against SQLite (a temporary file) and the machine's real PostgreSQL
(127.0.0.1:5432, reset before each test).

Each test run gets a PostgreSQL database of its own, `nightfall_test_<pid>`, created on first
use and dropped when the run ends: two runs on one machine (CI beside a developer's run, or two
worktrees) would otherwise drop each other's tables halfway through a test.
`NIGHTFALL_TEST_POSTGRES` names the server (any database on it serves to create ours)."""

from __future__ import annotations

import asyncio
import os

import asyncpg
import pytest

from core.storage.db import close_db

SERVER = os.environ.get("NIGHTFALL_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432/test")
RUN_DATABASE = f"nightfall_test_{os.getpid()}"
POSTGRES = f"{SERVER.rsplit('/', 1)[0]}/{RUN_DATABASE}"

_created = False


async def _create_run_database() -> None:
    """Create this run's database, and drop those left by runs whose process is gone."""
    global _created
    conn = await asyncpg.connect(SERVER)
    try:
        names = await conn.fetch(
            "SELECT datname FROM pg_database WHERE datname LIKE 'nightfall\\_test\\_%'")
        for (name,) in names:
            pid = name.rsplit("_", 1)[1]
            if name != RUN_DATABASE and pid.isdigit() and not _running(int(pid)):
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if not any(name == RUN_DATABASE for (name,) in names):
            await conn.execute(f'CREATE DATABASE "{RUN_DATABASE}"')
    finally:
        await conn.close()
    _created = True


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def drop_run_database() -> None:
    """Called once at the end of the run (tests/conftest.py)."""
    if not _created:
        return
    conn = await asyncpg.connect(SERVER)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{RUN_DATABASE}" WITH (FORCE)')
    finally:
        await conn.close()


async def reset_postgres() -> None:
    if not _created:
        await _create_run_database()
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
