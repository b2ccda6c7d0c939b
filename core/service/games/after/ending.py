"""The game is over: the row ended with an unguessable archive address, everybody may speak
again, the team rooms close, and the group is handed the game's picture and, where the
archive is public, the link to its whole story."""

from __future__ import annotations

from core.engine.messages import Ref, RefKind
from core.storage.states import GameStatus
from core.story.archive import new_archive_token, page_link
from core.story.texts import ARCHIVE_LINK
from core.story.texts import TITLE as STORY_TITLE

from ...messages import outbox
from ...messages.payloads import PicturePayload, part, post
from ...rows.game_rows import chat_of
from ...telling.muting import unmute_the_dead
from ...telling.teams import close_teams
from ..applied import Applied, Held


async def end_the_game(applied: Applied, held: Held) -> None:
    row = applied.row
    row.status = GameStatus.ENDED
    row.archive_token = new_archive_token()  # the page's unguessable address
    await unmute_the_dead(row, applied.game)
    await close_teams(row)
    await outbox.to_group(await chat_of(row), PicturePayload((part(
        STORY_TITLE, ruleset=Ref(RefKind.RULESET, row.ruleset)),)), game=row)
    if held.public_url:  # the whole story, once the game is over
        await outbox.to_group(await chat_of(row), post(
            ARCHIVE_LINK, link=page_link(held.public_url, row.archive_token)), game=row)
