"""One watch over the database's reachability, shared by every loop of the process.

When a loop meets an error that means the database cannot be reached (`database_unavailable`)
it reports it here and waits: the watch logs ONE line when the database goes away, probes it
about once a second (a `SELECT 1` on a fresh pool connection), logs one line when it answers
again and wakes every waiting loop at once. So an outage costs a second of recovery, not a
minute of exponential back-off, and the log gets two lines, not a traceback per round.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient, TransactionalDBClient

from .db import database_unavailable

log = logging.getLogger("nightfall.database")
PROBE_INTERVAL = 1.0  # seconds between probes while the database is away


class DatabaseWatch:
    def __init__(self, probe_interval: float = PROBE_INTERVAL) -> None:
        self.probe_interval = probe_interval
        self.up = asyncio.Event()
        self.up.set()
        self.outages = 0
        self.down_since: float | None = None
        self.last_error = ""
        self._probe: asyncio.Task[None] | None = None
        self._on_back: list[Callable[[], None]] = []

    @property
    def available(self) -> bool:
        return self.up.is_set()

    def on_back(self, callback: Callable[[], None]) -> None:
        """Call `callback` each time the database answers again after an outage."""
        self._on_back.append(callback)

    def failed(self, err: BaseException) -> bool:
        """Report an error; whether it meant the database is unreachable (the watch then
        probes until it answers). Any other error is the caller's to log."""
        if not database_unavailable(err):
            return False
        if self.up.is_set():
            self.up.clear()
            self.outages += 1
            self.down_since = time.monotonic()
            self.last_error = f"{type(err).__name__}: {err}"[:300]
            log.error("database unreachable (%s); trying again every %.0f s",
                      self.last_error, self.probe_interval)
        if self._probe is None or self._probe.done():
            self._probe = asyncio.create_task(self._wait_back(), name="database-probe")
        return True

    async def wait_up(self) -> None:
        await self.up.wait()

    async def _wait_back(self) -> None:
        while True:
            await asyncio.sleep(self.probe_interval)
            try:
                await root_client().execute_query("SELECT 1")
            except asyncio.CancelledError:
                raise
            except Exception as err:  # still away (or a stale pooled connection: next try)
                self.last_error = f"{type(err).__name__}: {err}"[:300]
                await expire_pooled()
                continue
            break
        await expire_pooled()  # the pool's other idle connections died with the server
        away = time.monotonic() - (self.down_since or time.monotonic())
        self.down_since = None
        log.warning("database is back after %.1f s", away)
        self.up.set()
        for callback in self._on_back:
            callback()

    async def stop(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probe


def root_client() -> BaseDBAsyncClient:
    """The pool's client itself: the probe task copies the context of the task that met the
    error, which may sit inside a transaction (whose connection is the broken one)."""
    client = connections.get("default")
    while isinstance(client, TransactionalDBClient):
        client = client._parent
    assert isinstance(client, BaseDBAsyncClient)
    return client


async def expire_pooled() -> None:
    """Make the pool reconnect its idle connections before their next use (after a server
    restart each of them would fail once more)."""
    pool = getattr(root_client(), "_pool", None)
    if pool is not None:
        with contextlib.suppress(Exception):
            await pool.expire_connections()


_watch: DatabaseWatch | None = None


def watch() -> DatabaseWatch:
    """The process's watch (created on first use)."""
    global _watch
    if _watch is None:
        _watch = DatabaseWatch()
    return _watch


def install() -> DatabaseWatch:
    """A fresh watch for a runtime that starts (a test's next event loop gets its own)."""
    global _watch
    _watch = DatabaseWatch()
    return _watch
