"""Opening the database: tortoise configuration, schema migrations, closing."""

from __future__ import annotations

from typing import Any

import asyncpg
from tortoise import Tortoise, connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.backends.base.config_generator import expand_db_url
from tortoise.backends.base.executor import EXECUTOR_CACHE
from tortoise.migrations.api import migrate

DEFAULT_URL = "sqlite://nightfall.sqlite3"


def tortoise_config(url: str) -> dict[str, Any]:
    connection: str | dict[str, Any] = url
    if url.startswith(("postgres://", "postgresql://")):
        # tortoise's asyncpg client with a transaction that cannot poison a task's connection
        connection = expand_db_url(url)
        connection["engine"] = "core.storage.pgclient"
    return {
        "connections": {"default": connection},
        "apps": {
            "models": {
                "models": ["core.storage.models", "core.storage.places"],
                "default_connection": "default",
                "migrations": "core.storage.migrations",
            },
        },
        "use_tz": True,
    }


# tortoise keeps its clients per asyncio context: a close from another task (a test fixture's
# teardown, a shutdown handler) would not see them, and an unclosed SQLite client keeps a
# non-daemon thread that stops the interpreter from exiting. So we remember what we opened.
_opened: list[BaseDBAsyncClient] = []

# For the `tortoise` command line (makemigrations): `tortoise -c core.storage.db.TORTOISE_ORM`.
TORTOISE_ORM = tortoise_config(DEFAULT_URL)


async def open_db(url: str) -> None:
    """Apply pending migrations, then connect."""
    config = tortoise_config(url)
    await migrate(config=config)
    await close_db()
    await Tortoise.init(config=config)
    _opened.extend(connections.all())


async def close_db() -> None:
    """Close the connections and forget the models' binding (a later open may use another
    database, as the test suite does)."""
    await Tortoise.close_connections()
    while _opened:
        await _opened.pop().close()
    await Tortoise._reset_apps()
    # tortoise caches insert statements per connection *name*, not per dialect: a process that
    # opens SQLite and then PostgreSQL under the name "default" would reuse SQLite's SQL.
    EXECUTOR_CACHE.clear()


def database_unavailable(err: BaseException) -> bool:
    """Whether an error means the database could not be reached (an outage, a restart), as
    opposed to a fault in what was asked of it: an update that failed for this reason is to
    be applied again later, not given up."""
    chain: BaseException | None = err
    while chain is not None:
        if isinstance(chain, (ConnectionError, OSError, TimeoutError,
                              asyncpg.PostgresConnectionError, asyncpg.InterfaceError,
                              asyncpg.CannotConnectNowError, asyncpg.AdminShutdownError,
                              # a connection left mid-operation by a killed backend
                              asyncpg.exceptions._base.InternalClientError)):
            return True
        if "database is locked" in str(chain):
            return True
        chain = chain.__cause__ or chain.__context__
    return False
