"""The players the outcome removed go silent in the group (muting.py), but for one an admin
put out of the group (cause `kicked`): he is not there to speak, and muting him (on Telegram,
a restriction) would replace the admin's ban."""

from __future__ import annotations

from core.engine.causes import OutOfStory
from core.engine.events import Removed

from ...telling.muting import silence_removed
from ..applied import Applied, Held


async def silence_the_removed(applied: Applied, held: Held) -> None:
    await silence_removed(applied.row, [e.player for e in applied.outcome.events
                                        if isinstance(e, Removed)
                                        and e.cause != OutOfStory.KICKED],
                          going_on=not applied.ended)
