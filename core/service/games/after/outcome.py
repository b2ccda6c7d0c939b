"""The outcome to its readers: a window's results urgent; a game's last outcome one group
message, with the story's summary as its epilogue."""

from __future__ import annotations

from core.story import story_of
from core.story.summary import summary_texts

from ...telling.audience import deliver_outcome
from ..applied import Applied, Held


async def tell_outcome(applied: Applied, held: Held) -> None:
    await deliver_outcome(applied.row, applied.game, applied.rest, urgent=applied.new_window,
                          one_group_message=applied.ended,
                          epilogue=summary_texts(story_of(applied.game)) if applied.ended
                          else ())
