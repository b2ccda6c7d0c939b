"""The picture of a finished game as its reader is handed it: drawn at delivery from the
stored game (in the reader's language, off the event loop: it takes a few tenths of a second),
or its caption alone where the game has no story any more."""

from __future__ import annotations

import asyncio

from core.storage.models import Outbox
from core.story.archive import archived
from core.story.picture import png

from ..ports.contract import ChatRef, Picture, Post, Reader


async def story_picture(row: Outbox, to: ChatRef | Reader, caption: str, locale: str,
                        urgent: bool) -> Picture | Post:
    found = await archived(row.game_id) if row.game_id is not None else None
    if found is None:
        return Post(row.id, to, caption, None, urgent)
    image = await asyncio.to_thread(png, found.story, locale)
    return Picture(row.id, to, image, caption, f"nightfall-{row.game_id}.png", None, urgent)
