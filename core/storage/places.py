"""What a game place keeps between its games (a group chat, or one forum topic of it: each
is a `Chat` row of its own): the host's settings, remembered for the next game there.

A module of its own beside `models` (the same tortoise app): the table is the service's,
written and read only through `core.service.rows.place_settings`."""

from __future__ import annotations

# Model docstrings become SQL table comments: keep semicolons out of them.
from typing import Any

from tortoise import fields
from tortoise.models import Model

from .models import Chat


class PlaceSettingsRow(Model):
    """A game place's remembered settings (a chat, or a forum topic), as typed JSON
    (core.service.ports.place_settings.PlaceSettings)."""

    _no_comments = True  # (see models.py)

    id = fields.IntField(primary_key=True)
    chat: fields.OneToOneRelation[Chat] = fields.OneToOneField(
        "models.Chat", related_name="place_settings")
    chat_id: int
    settings: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict)

    class Meta:
        table = "place_settings"
