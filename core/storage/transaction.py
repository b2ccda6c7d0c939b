"""A transaction that cannot poison its task's connection.

tortoise's own pooled transaction context sets the task's connection variable before `BEGIN`
and resets it only after the connection went back to the pool: when `BEGIN` fails (a
backend killed in between), the variable keeps pointing at a wrapper whose connection is
lost or released, and every later query of that task fails with "connection has been
released back to the pool" forever. Here the variable is reset in `finally`, whatever
failed, and a connection that failed to begin, commit or roll back is terminated, never
handed back to the pool for the next task.
"""

from __future__ import annotations

import contextlib
from types import TracebackType
from typing import Any

from tortoise import connections
from tortoise.backends.asyncpg.client import AsyncpgDBClient, TransactionWrapper
from tortoise.backends.base.client import TransactionalDBClient, TransactionContext
from tortoise.exceptions import TransactionManagementError
from tortoise.transactions import in_transaction

NAME = "default"


class SafeTransaction:
    """`async with transaction():` as tortoise's `in_transaction()`, on the PostgreSQL pool
    without its failure modes (SQLite and nested transactions use tortoise's own). It is
    also the PostgreSQL client's own transaction context (`core.storage.pgclient`)."""

    def __init__(self, parent: AsyncpgDBClient | None = None) -> None:
        self._parent = parent
        self._inner: TransactionContext | None = None
        self._client: TransactionWrapper | None = None
        self._token: Any = None
        self._connection: Any = None
        self._pool: Any = None

    async def __aenter__(self) -> TransactionalDBClient:
        parent = self._parent or connections.get(NAME)
        if not isinstance(parent, AsyncpgDBClient) or isinstance(parent, TransactionWrapper):
            self._inner = in_transaction(NAME)  # SQLite, or inside a transaction already
            return await self._inner.__aenter__()
        if parent._pool is None:
            await parent.create_connection(with_db=True)
        self._pool = parent._pool
        assert self._pool is not None
        self._connection = await self._pool.acquire()
        client = TransactionWrapper(parent)
        client._connection = self._connection
        self._client = client
        self._token = connections.set(parent.connection_name, client)
        try:
            await client.begin()
        except BaseException:
            await self._finish(broken=True)
            raise
        return client

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._inner is not None:
            await self._inner.__aexit__(exc_type, exc, tb)
            return
        client = self._client
        assert client is not None
        broken = False
        try:
            if not client._finalized:
                if exc_type is None:
                    await client.commit()
                elif exc_type is not TransactionManagementError:
                    await client.rollback()
        except BaseException:
            broken = True
            raise
        finally:
            await self._finish(broken)

    async def _finish(self, broken: bool) -> None:
        """Forget the task's transaction first, then give the connection back (or end it)."""
        connections.reset(self._token)
        connection, self._connection = self._connection, None
        if connection is None or connection._con is None:
            return  # the server closed it, and the pool has taken it back already
        if broken or connection.is_closed():
            with contextlib.suppress(Exception):
                connection.terminate()  # the pool opens a fresh one in its place
        with contextlib.suppress(Exception):
            await self._pool.release(connection)


def transaction() -> SafeTransaction:
    return SafeTransaction()
