"""A new database gets its schema from a copy, not from running every migration again.

Bringing an empty database up through all migrations costs tortoise most of a second of
processor time (it rebuilds its model state after each operation), and the suite opens a
few hundred new databases: every service test on SQLite and on PostgreSQL, every Telegram and
Matrix table. So this test process migrates one template per database kind once, and a new,
empty database of the same kind is filled from it before `open_db`'s own `migrate` runs, which
then finds nothing pending. The schema is still made by the real migrations (the template's),
an existing database is migrated as ever (`tests/service/test_upgrade.py` puts an old one
back), and the bots the tests start as processes migrate their own databases.

SQLite: the template file is copied with SQLite's backup API. PostgreSQL: the template
database is dumped once (`pg_dump`, schema and rows), and an empty `public` schema is filled
by running that dump; without `pg_dump` the real migration runs."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import asyncpg

import core.storage.db as db

_real_migrate = db.migrate
_sqlite_template: Path | None = None
_postgres_dump: str | None = None


def install() -> None:
    """From now on `open_db` in this process fills a new database from the template."""
    db.migrate = migrate  # type: ignore[assignment]


async def migrate(*, config: dict[str, Any], **options: Any) -> None:
    connection = config["connections"]["default"]
    if isinstance(connection, str) and connection.startswith("sqlite://"):
        path = Path(connection.removeprefix("sqlite://").split("?", 1)[0])
        if connection != "sqlite://:memory:" and not path.exists():
            await _copy_sqlite(path)
    elif isinstance(connection, dict) and shutil.which("pg_dump"):
        await _fill_postgres(connection["credentials"])
    await _real_migrate(config=config, **options)


async def _copy_sqlite(path: Path) -> None:
    global _sqlite_template
    if _sqlite_template is None:
        template = Path(tempfile.mkdtemp(prefix="nightfall-schema-")) / "template.sqlite3"
        await _migrate_alone(f"sqlite://{template}")
        _sqlite_template = template
    with contextlib.closing(sqlite3.connect(_sqlite_template)) as source, \
            contextlib.closing(sqlite3.connect(path)) as target:
        source.backup(target)


async def _fill_postgres(credentials: dict[str, Any]) -> None:
    """Runs the template's dump in the database if its `public` schema is empty."""
    url = "postgres://{user}@{host}:{port}/{database}".format(**credentials)
    conn = await asyncpg.connect(url, password=credentials.get("password"))
    try:
        if await conn.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"):
            return
        dump = _postgres_dump if _postgres_dump is not None else await _dump_postgres(url)
        await conn.execute(dump)
    finally:
        await conn.close()


async def _dump_postgres(url: str) -> str:
    """Migrates a template database of this process once and keeps its dump."""
    global _postgres_dump
    name = f"{url.rsplit('/', 1)[1]}_schema"
    server = await asyncpg.connect(url.rsplit("/", 1)[0] + "/postgres")
    try:
        await server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await server.execute(f'CREATE DATABASE "{name}"')
        template = f"{url.rsplit('/', 1)[0]}/{name}"
        await _migrate_alone(template)
        dump = subprocess.run(
            ["pg_dump", "--no-owner", "--no-privileges", "--inserts", "--schema=public",
             "--dbname", template], capture_output=True, text=True, check=True,
            timeout=120).stdout
        # SQL only (newer pg_dumps wrap the dump in psql's \restrict meta-commands), into the
        # `public` schema the database already has
        _postgres_dump = "\n".join(line for line in dump.splitlines()
                                   if not line.startswith(("\\", "CREATE SCHEMA public;")))
    finally:
        await server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await server.close()
    return _postgres_dump


async def _migrate_alone(url: str) -> None:
    await _real_migrate(config=db.tortoise_config(url))
    await db.close_db()
