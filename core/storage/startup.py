"""Opening the database at start when it may not be up yet (a host booting, a container
starting beside its database): tried again for a bounded time, then one clear line."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from urllib.parse import urlsplit

from .db import close_db, database_unavailable, open_db

RETRY_PAUSE = 1.0  # seconds between tries at start


class DatabaseUnreachable(Exception):
    """The database did not answer within `[database] start_timeout`: retrying at once
    cannot help, the process ends with this one line."""


def where(url: str) -> str:
    """The database's address without its credentials (for the log)."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        return url
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


async def open_when_reachable(url: str, timeout: float) -> None:
    """`open_db`, tried again every second for up to `timeout` seconds while the database
    cannot be reached (any other error, a wrong schema say, is raised at once)."""
    give_up = time.monotonic() + timeout
    while True:
        try:
            await open_db(url)
            return
        except Exception as err:
            if not database_unavailable(err) and not _refused(err):
                raise
            await quietly(close_db())
            if time.monotonic() >= give_up:
                raise DatabaseUnreachable(
                    f"database unreachable: {where(url)} did not answer within "
                    f"{timeout:.0f} s ({type(err).__name__}: {err})") from None
            await asyncio.sleep(RETRY_PAUSE)


async def quietly(closing: Awaitable[None]) -> None:
    """Without tortoise's "shutdown" line for each try (the wait ends in one line)."""
    orm = logging.getLogger("tortoise")
    level = orm.level
    orm.setLevel(logging.WARNING)
    try:
        await closing
    finally:
        orm.setLevel(level)


def _refused(err: BaseException) -> bool:
    """tortoise wraps some connection failures in its own error types."""
    from tortoise.exceptions import DBConnectionError

    return isinstance(err, DBConnectionError)
