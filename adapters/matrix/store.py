"""What the adapter must remember across restarts, in the store the service hands it (see
core/service/ports/adapter_store.py): the sync token, the device, the private rooms, the event ids
behind editable messages ("ref", in the store's message table), keyboards and polls, and the
power levels taken from the muted.

Keeping it next to the game data means a restored database brings the bot back exactly where
the games are: no command is read twice or skipped. The adapter wraps the store it is handed
at start in a `MatrixStore` and gives that to each part, which reads and writes by kind and
parts of a key.
"""

from __future__ import annotations

import hashlib
from typing import Any

from core.service import AdapterStore

REF = "ref"  # what later versions of a message edit: kept as a platform message
LEGACY_KEY_LENGTH = 64  # what the previous version of the database hashed its keys at


def _legacy(kind: str, key: str) -> str | None:
    """The key an older database kept this one under, if it had to hash it."""
    raw = f"matrix:{kind}:{key}"
    if len(raw) <= LEGACY_KEY_LENGTH:
        return None
    digest = hashlib.sha256(raw.encode()).hexdigest()[:40]
    return f"matrix:{kind}:#{digest}"[:LEGACY_KEY_LENGTH][len(f"matrix:{kind}:"):]


class MatrixStore:
    """The service's adapter store as the Matrix parts use it: values by kind and key parts,
    editable messages in the store's message table, keys of older databases still found."""

    def __init__(self, store: AdapterStore) -> None:
        self.store = store

    async def load(self, kind: str, *parts: str) -> Any:
        if kind == REF and len(parts) == 2:
            message = await self.store.message(*parts)
            if message is not None:
                return {**message.detail, "event_id": message.ids[0]}
        key = ":".join(parts)
        value = await self.store.get(kind, key)
        legacy = _legacy(kind, key) if value is None else None
        return value if legacy is None else await self.store.get(kind, legacy)

    async def save(self, value: Any, kind: str, *parts: str) -> None:
        if kind == REF and len(parts) == 2 and isinstance(value, dict):
            detail = {k: v for k, v in value.items() if k != "event_id"}
            await self.store.keep_message(parts[0], parts[1], [value["event_id"]], detail)
            return
        await self.store.put(kind, ":".join(parts), value)

    async def drop(self, kind: str, *parts: str) -> None:
        key = ":".join(parts)
        await self.store.delete(kind, key)
        legacy = _legacy(kind, key)
        if legacy is not None:
            await self.store.delete(kind, legacy)


async def forget_user(store: AdapterStore, user_id: str) -> None:
    """Drop a person from every bot's private-room map (for `nightfall forget`)."""
    for bot, rooms in await store.scan("dm"):
        if isinstance(rooms, dict) and user_id in rooms:
            rooms.pop(user_id)
            await store.put("dm", bot, rooms)
