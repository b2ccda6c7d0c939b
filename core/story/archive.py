"""A finished game's story from its stored rows, for the archive page, the picture and the
statistics. Only a game that ended has one: a running game's log is secret, so for it (as for
an unknown id) there is nothing, and the HTTP server answers 404 alike. The story is built
anew from the rows each time, so what `nightfall forget` scrubbed is gone from it too."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.registry import load_ruleset
from core.service.codec import command_from_json
from core.service.stored import setup_from_json
from core.storage.models import GameRecord, LogEntry

from .build import build_story
from .model import Story

ARCHIVE_LOCALES = ("en", "de", "ru")
# The host's game setting that shows the team chats on the archive page (off unless set).
TEAM_CHATS_SETTING = "archive_team_chats"


@dataclass(frozen=True, slots=True)
class Archived:
    game_id: int
    story: Story
    locale: str  # the chat's language
    team_chats: bool


async def archived(game_id: int) -> Archived | None:
    """The story of a game that ended, or None (unknown, still running, cancelled)."""
    row = await GameRecord.get_or_none(id=game_id).prefetch_related("chat")
    if row is None or row.status != "ended" or row.setup is None:
        return None
    return Archived(game_id, await story_of_row(row), row.chat.locale or "en",
                    bool((row.settings or {}).get(TEAM_CHATS_SETTING)))


async def story_of_row(row: GameRecord) -> Story:
    entries = await LogEntry.filter(game_id=row.id).order_by("seq")
    return build_story(load_ruleset(row.ruleset), setup_from_json(row.setup or {}),
                       [command_from_json(e.command) for e in entries])


def page_link(public_url: str, game_id: int) -> str:
    """Where the bot's HTTP server serves a game's archive page ("" without a public URL)."""
    return f"{public_url.rstrip('/')}/games/{game_id}" if public_url else ""


async def game_list() -> list[dict[str, object]]:
    """Every game with its id, for `nightfall games`: rule set, status, chat, players, start."""
    rows = await GameRecord.all().order_by("id").prefetch_related("chat", "seats")
    return [{"id": r.id, "ruleset": r.ruleset, "status": r.status,
             "chat": f"{r.chat.platform}:{r.chat.ref}",
             "players": len({s.pid for s in r.seats if s.active}) if r.setup else 0,
             "created_at": r.created_at.isoformat(timespec="minutes")} for r in rows]
