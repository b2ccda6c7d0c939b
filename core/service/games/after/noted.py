"""A player's own "noted" answers come first: before "this choice is closed" when his choice
closed its window. A pressed button says "noted" in its notice and keyboard instead."""

from __future__ import annotations

from core.engine import Outcome

from ...telling.audience import deliver_outcome
from ..applied import Applied, Held


async def tell_noted(applied: Applied, held: Held) -> None:
    if not applied.pressed:
        await deliver_outcome(applied.row, applied.game, Outcome([], list(applied.noted)))
