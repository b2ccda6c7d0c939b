"""A button offered in a window: stored under a random token, which is all a platform
carries back when it is pressed."""

from __future__ import annotations

import secrets
from typing import Any

from core.storage.models import Button
from core.storage.models import Game as GameRow

from .payloads import StoredButton


async def button(row: GameRow, pid: str | None, label: dict[str, Any],
                 command: dict[str, Any], start: bool = False) -> StoredButton:
    """A button offered in this window; `start` ones are pressed from the private chat."""
    token = secrets.token_urlsafe(12)
    await Button.create(token=token, game=row, window=row.window, pid=pid, label=label,
                        command=command)
    return StoredButton(label, token, start)
