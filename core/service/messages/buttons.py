"""A button offered in a window: stored under a random token, which is all a platform
carries back when it is pressed; and the sign-up's buttons, made once per game."""

from __future__ import annotations

import secrets

from core.storage.models import Button, GameRecord, SignupButtons

from ..rows import pending
from . import texts
from .button_commands import ButtonCommand, Join, Leave, to_json
from .payloads import Label, StoredButton, TextLabel, label_to_json


async def button(row: GameRecord, pid: str | None, label: Label,
                 command: ButtonCommand, start: bool = False) -> StoredButton:
    """A button offered in this window; `start` ones are pressed from the private chat."""
    token = secrets.token_urlsafe(12)
    await pending.add(Button(token=token, game=row, window=row.window, pid=pid,
                             label=label_to_json(label),
                             command=to_json(command)))
    return StoredButton(label, token, start)


async def signup_buttons(row: GameRecord) -> tuple[StoredButton, ...]:
    """Join and leave under the sign-up message: made once, kept while its list is edited
    (they open the private chat, where the bot may then write to the player)."""
    kept = await SignupButtons.get_or_none(game_id=row.id)
    if kept is None:
        made = (await button(row, None, TextLabel(texts.JOIN_BUTTON), Join(),
                             start=True),
                await button(row, None, TextLabel(texts.LEAVE_BUTTON), Leave(),
                             start=True))
        kept = await SignupButtons.create(game=row, buttons=[b.to_json() for b in made])
    return tuple(StoredButton.from_json(b) for b in kept.buttons)
