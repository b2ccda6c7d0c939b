"""The players the outcome removed go silent in the group (muting.py)."""

from __future__ import annotations

from core.engine.events import Removed

from ...telling.muting import silence_removed
from ..applied import Applied, Held


async def silence_the_removed(applied: Applied, held: Held) -> None:
    await silence_removed(applied.row, [e.player for e in applied.outcome.events
                                        if isinstance(e, Removed)],
                          going_on=not applied.ended)
