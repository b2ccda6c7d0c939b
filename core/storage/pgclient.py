"""tortoise's asyncpg client with our transaction context (`core.storage.transaction`) for
every transaction, tortoise's own too: `get_or_create` and `update_or_create` (the adapters'
stores) and the migrations open theirs through `_in_transaction`, so a backend killed at
their BEGIN would poison the task just the same. Named as the engine in `tortoise_config`.

Its pool hands a connection back without asyncpg's reset query (`SELECT
pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL`): nothing here changes a
session's state (no SET, LISTEN, advisory lock or cursor outside a transaction), and the
query was a round trip of its own after every command. An open transaction is still rolled
back on release (asyncpg does that before a pool's own reset)."""

from __future__ import annotations

from typing import Any

import asyncpg
from tortoise.backends.asyncpg.client import AsyncpgDBClient

from .transaction import SafeTransaction


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    return None


class SafeAsyncpgClient(AsyncpgDBClient):
    async def create_pool(self, **kwargs: Any) -> asyncpg.Pool:
        return await asyncpg.create_pool(None, reset=_nothing_to_reset, **kwargs)

    def _in_transaction(self) -> SafeTransaction:  # type: ignore[override]
        return SafeTransaction(self)


client_class = SafeAsyncpgClient
