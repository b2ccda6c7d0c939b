"""The `AdapterStore` on the service's own database (tables `adapter_state` and
`message_ref`), one per platform."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from core.storage.models import MESSAGE_KEY_LENGTH, STATE_KEY_LENGTH, AdapterState, MessageRef

from ..ports.adapter_store import PlatformMessage


def _fit(key: str, length: int) -> str:
    """Keys longer than the column (Matrix ids can be long) are kept by their hash."""
    if len(key) <= length:
        return key
    return "#" + hashlib.sha256(key.encode()).hexdigest()


class TableStore:
    """An adapter's records (see `AdapterStore`), under its platform's name."""

    def __init__(self, platform: str) -> None:
        self.platform = platform

    async def get(self, namespace: str, key: str) -> Any:
        row = await AdapterState.get_or_none(platform=self.platform, namespace=namespace,
                                             key=_fit(key, STATE_KEY_LENGTH))
        return None if row is None else row.value.get("v")

    async def put(self, namespace: str, key: str, value: Any) -> None:
        # wrapped: the JSON field takes a bare string for JSON text, not for a value
        await AdapterState.update_or_create(platform=self.platform, namespace=namespace,
                                            key=_fit(key, STATE_KEY_LENGTH),
                                            defaults={"value": {"v": value}})

    async def delete(self, namespace: str, key: str) -> None:
        await AdapterState.filter(platform=self.platform, namespace=namespace,
                                  key=_fit(key, STATE_KEY_LENGTH)).delete()

    async def scan(self, namespace: str) -> list[tuple[str, Any]]:
        rows = await AdapterState.filter(platform=self.platform, namespace=namespace) \
            .order_by("id")
        return [(row.key, row.value.get("v")) for row in rows]

    async def message(self, chat_ref: str, key: str) -> PlatformMessage | None:
        row = await MessageRef.get_or_none(platform=self.platform, chat_ref=chat_ref,
                                           key=_fit(key, MESSAGE_KEY_LENGTH))
        return None if row is None else PlatformMessage(tuple(row.ids), dict(row.detail))

    async def keep_message(self, chat_ref: str, key: str, ids: Sequence[int | str],
                           detail: Mapping[str, Any] | None = None) -> None:
        await MessageRef.update_or_create(
            platform=self.platform, chat_ref=chat_ref, key=_fit(key, MESSAGE_KEY_LENGTH),
            defaults={"ids": list(ids), "detail": dict(detail or {})})

    async def drop_messages(self, chat_ref: str, key: str | None = None) -> None:
        rows = MessageRef.filter(platform=self.platform, chat_ref=chat_ref)
        if key is not None:
            rows = rows.filter(key=_fit(key, MESSAGE_KEY_LENGTH))
        await rows.delete()
