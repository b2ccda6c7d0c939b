"""`/archivechats on|off`: the host's setting, before the start, whether the game's archive
page shows its team chats once it is over (off unless the host says so: players write there
believing only their team reads it)."""

from __future__ import annotations

from core.engine.messages import N_
from core.storage.models import Chat, GameRecord, Identity
from core.storage.states import CURRENT, GameStatus
from core.story.archive import TEAM_CHATS_SETTING

from ..messages import outbox, texts
from ..messages.payloads import post
from ..ports.replies import Reply
from ..rows.game_rows import relock
from .typed_values import read_value

CHOICES = {"on": True, "off": False}
CHATS_SHOWN = N_("Setting changed: once the game is over, its archive page shows the team "
                 "chats.")
CHATS_HIDDEN = N_("Setting changed: the archive page will not show the team chats.")
USAGE = N_("Write /archivechats on (once the game is over, its archive page shows the team "
           "chats) or /archivechats off (it does not: the default). Now: {value}.")


async def archive_chats_command(rest: str, chat: Chat, person: Identity, admin: bool) -> None:
    row = await GameRecord.filter(chat_id=chat.id, status__in=CURRENT).first()
    if row is None:
        raise Reply(texts.NO_GAME)
    await relock(row)
    if row.status != GameStatus.LOBBY:
        raise Reply(texts.NOT_IN_LOBBY)
    if row.host_id != person.id and not admin:
        raise Reply(texts.NOT_HOST)
    wanted = read_value(rest, CHOICES) or ""  # on/off in any of the bot's languages
    if wanted not in CHOICES:
        raise Reply(USAGE, value="on" if (row.settings or {}).get(TEAM_CHATS_SETTING) else "off")
    row.settings = {**(row.settings or {}), TEAM_CHATS_SETTING: CHOICES[wanted]}
    await row.save(update_fields=["settings"])
    await outbox.to_group(chat, post(CHATS_SHOWN if CHOICES[wanted] else CHATS_HIDDEN),
                          game=row)
