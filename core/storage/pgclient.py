"""tortoise's asyncpg client with our transaction context (`core.storage.transaction`) for
every transaction, tortoise's own too: `get_or_create` and `update_or_create` (the adapters'
stores) and the migrations open theirs through `_in_transaction`, so a backend killed at
their BEGIN would poison the task just the same. Named as the engine in `tortoise_config`."""

from __future__ import annotations

from tortoise.backends.asyncpg.client import AsyncpgDBClient

from .transaction import SafeTransaction


class SafeAsyncpgClient(AsyncpgDBClient):
    def _in_transaction(self) -> SafeTransaction:  # type: ignore[override]
        return SafeTransaction(self)


client_class = SafeAsyncpgClient
