"""What the adapter must remember across restarts, in the service's own database (KeyValue):
the sync token, the device, the private rooms, the event ids behind editable messages,
keyboards and polls, and the power levels taken from the muted.

Keeping it next to the game data means a restored database brings the bot back exactly where
the games are: no command is read twice or skipped."""

from __future__ import annotations

import hashlib
from typing import Any

from core.storage.models import KeyValue

KEY_LENGTH = KeyValue._meta.fields_map["key"].max_length


def key(kind: str, *parts: str) -> str:
    """`matrix:<kind>:<parts>`, hashed where room and event ids make it too long."""
    raw = ":".join(("matrix", kind, *parts))
    if len(raw) <= KEY_LENGTH:
        return raw
    digest = hashlib.sha256(raw.encode()).hexdigest()[:40]
    return f"matrix:{kind}:#{digest}"[:KEY_LENGTH]


async def load(kind: str, *parts: str) -> Any:
    row = await KeyValue.get_or_none(key=key(kind, *parts))
    return None if row is None or not isinstance(row.value, dict) else row.value.get("v")


async def save(value: Any, kind: str, *parts: str) -> None:
    """Stored wrapped: the JSON field takes a bare string for JSON text, not a value."""
    await KeyValue.update_or_create(key=key(kind, *parts), defaults={"value": {"v": value}})


async def drop(kind: str, *parts: str) -> None:
    await KeyValue.filter(key=key(kind, *parts)).delete()


async def forget_user(user_id: str) -> None:
    """Drop a person from every bot's private-room map (for `nightfall forget`)."""
    for row in await KeyValue.filter(key__startswith="matrix:dm:"):
        rooms = row.value.get("v") if isinstance(row.value, dict) else None
        if isinstance(rooms, dict) and user_id in rooms:
            rooms.pop(user_id)
            row.value = {"v": rooms}
            await row.save(update_fields=["value"])
