"""What an adapter may keep across restarts, and how: the `AdapterStore` the service hands
each adapter when it starts it (and a plugin's `forget`), so that no adapter touches the
service's tables.

Two kinds of record. Small JSON values in namespaces of the adapter's own (a sync token, a
map of private rooms), read and written by key. And the platform messages behind one of our
messages that is edited in place (`PlatformMessage`: the chat, the outbox's `replace` key,
the platform's message ids), which every platform that edits needs.

Each store belongs to one platform: two adapters never see each other's records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from core.storage.availability import DatabaseWatch

#: The longest display name the service keeps for a person (longer ones are cut by the
#: adapter, which knows how to shorten them well).
NAME_LENGTH = 255


@dataclass(frozen=True, slots=True)
class PlatformMessage:
    """The platform's messages showing one of ours: `ids` in order (Telegram: one per part
    of a long text; Matrix: the event), `detail` whatever else editing it needs."""

    ids: tuple[int | str, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)


class AdapterStore(Protocol):
    """An adapter's own persistent records, kept in the service's database (a restored
    database brings the bot back exactly where its games are)."""

    async def get(self, namespace: str, key: str) -> Any:
        """The value kept under the key, or None."""
        ...

    async def put(self, namespace: str, key: str, value: Any) -> None:
        """Keep a JSON value (replacing what was there)."""
        ...

    async def delete(self, namespace: str, key: str) -> None: ...

    async def scan(self, namespace: str) -> list[tuple[str, Any]]:
        """Every (key, value) of the namespace, oldest first."""
        ...

    async def message(self, chat_ref: str, key: str) -> PlatformMessage | None:
        """The platform messages behind our message `key` in that chat, if it was sent."""
        ...

    async def keep_message(self, chat_ref: str, key: str, ids: Sequence[int | str],
                           detail: Mapping[str, Any] | None = None) -> None: ...

    async def drop_messages(self, chat_ref: str, key: str | None = None) -> None:
        """Forget one message, or (no key) all of the chat's: its ids mean nothing any more
        (the chat moved)."""
        ...


def is_outage(err: BaseException) -> bool:
    """Whether an error from the service or the store means its database is unreachable for
    now (an update that failed so is to be handled again later, not skipped)."""
    from core.storage.db import database_unavailable

    return database_unavailable(err)


def database_watch() -> DatabaseWatch:
    """The process's one watch over the database: an adapter's loop reports a failure to it and
    waits until it says the database is back, instead of backing off on its own."""
    from core.storage import availability

    return availability.watch()
