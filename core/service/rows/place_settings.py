"""The `PlaceSettingsStore` on the service's database (table `place_settings`, one row per
chat or forum topic, created when something is first remembered there)."""

from __future__ import annotations

from core.storage.places import PlaceSettingsRow

from ..ports.place_settings import PlaceSettings, PlaceSettingsStore


class PlaceTable:
    """Each place's settings as one typed JSON record."""

    async def get(self, chat_id: int) -> PlaceSettings:
        row = await PlaceSettingsRow.get_or_none(chat_id=chat_id)
        return PlaceSettings() if row is None else PlaceSettings.from_json(row.settings)

    async def put(self, chat_id: int, settings: PlaceSettings) -> None:
        await PlaceSettingsRow.update_or_create(chat_id=chat_id,
                                                defaults={"settings": settings.to_json()})

    async def reset(self, chat_id: int) -> None:
        await PlaceSettingsRow.filter(chat_id=chat_id).delete()


def place_settings() -> PlaceSettingsStore:
    """The store the service's commands use."""
    return PlaceTable()
