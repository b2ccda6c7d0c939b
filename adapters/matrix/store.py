"""What the adapter must remember across restarts, in the store the service hands it (see
core/service/ports/adapter_store.py): the sync token, the device, the private rooms, the event ids
behind editable messages ("ref", in the store's message table), keyboards and polls, and the
power levels taken from the muted.

Keeping it next to the game data means a restored database brings the bot back exactly where
the games are: no command is read twice or skipped. One process serves one Matrix store, so
the adapter binds it here when it starts (`use`), and its parts read and write by kind and
parts of a key.
"""

from __future__ import annotations

import hashlib
from typing import Any

from core.service import AdapterStore

REF = "ref"  # what later versions of a message edit: kept as a platform message
LEGACY_KEY_LENGTH = 64  # what the previous version of the database hashed its keys at

_bound: list[AdapterStore] = []


def use(store: AdapterStore) -> None:
    """The store the service handed the adapter (at start, or to `forget`)."""
    _bound[:] = [store]


def _store() -> AdapterStore:
    if not _bound:
        raise RuntimeError("matrix: no store bound (the adapter was not started)")
    return _bound[0]


def _legacy(kind: str, key: str) -> str | None:
    """The key an older database kept this one under, if it had to hash it."""
    raw = f"matrix:{kind}:{key}"
    if len(raw) <= LEGACY_KEY_LENGTH:
        return None
    digest = hashlib.sha256(raw.encode()).hexdigest()[:40]
    return f"matrix:{kind}:#{digest}"[:LEGACY_KEY_LENGTH][len(f"matrix:{kind}:"):]


async def load(kind: str, *parts: str) -> Any:
    store = _store()
    if kind == REF and len(parts) == 2:
        message = await store.message(*parts)
        if message is not None:
            return {**message.detail, "event_id": message.ids[0]}
    key = ":".join(parts)
    value = await store.get(kind, key)
    legacy = _legacy(kind, key) if value is None else None
    return value if legacy is None else await store.get(kind, legacy)


async def save(value: Any, kind: str, *parts: str) -> None:
    if kind == REF and len(parts) == 2 and isinstance(value, dict):
        detail = {k: v for k, v in value.items() if k != "event_id"}
        await _store().keep_message(parts[0], parts[1], [value["event_id"]], detail)
        return
    await _store().put(kind, ":".join(parts), value)


async def drop(kind: str, *parts: str) -> None:
    store = _store()
    key = ":".join(parts)
    await store.delete(kind, key)
    legacy = _legacy(kind, key)
    if legacy is not None:
        await store.delete(kind, legacy)


async def forget_user(store: AdapterStore, user_id: str) -> None:
    """Drop a person from every bot's private-room map (for `nightfall forget`)."""
    for bot, rooms in await store.scan("dm"):
        if isinstance(rooms, dict) and user_id in rooms:
            rooms.pop(user_id)
            await store.put("dm", bot, rooms)
