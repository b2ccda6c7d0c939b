"""A finished game's story from its stored rows, for the archive page, the picture and the
statistics. Only a game that ended has one: a running game's log is secret, so for it (as for
an unknown id) there is nothing, and the HTTP server answers 404 alike. The story is built
anew from the rows each time, so what `nightfall forget` scrubbed is gone from it too.

The public page is found by its game's archive token, never by the game's id: ids count up,
so anyone could read every chat's games by counting; a token is 128 random bits, given when
the game ends and told only in its chat (and to the admin by `nightfall games`)."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from core.engine.log_codec import command_from_json, setup_from_json
from core.engine.registry import load_ruleset
from core.storage.models import GameRecord, LogEntry, Seat
from core.storage.states import GameStatus

from .build import build_story
from .model import Story

ARCHIVE_LOCALES = ("en", "de", "ru")
# The host's game setting that shows the team chats on the archive page (off unless set).
TEAM_CHATS_SETTING = "archive_team_chats"
TOKEN_BYTES = 16  # 128 bits: 22 URL-safe characters
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")


def new_archive_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True, slots=True)
class Archived:
    game_id: int
    story: Story
    locale: str  # the chat's language
    team_chats: bool


async def archived(game_id: int) -> Archived | None:
    """The story of a game that ended, or None (unknown, still running, cancelled): for the
    admin's `nightfall archive` and the picture sent to the game's own chat."""
    return await _archived(await GameRecord.get_or_none(id=game_id).prefetch_related("chat"))


async def archived_by_token(token: str) -> Archived | None:
    """The story behind a public archive address, or None (no such token, or not over)."""
    if not TOKEN.fullmatch(token):
        return None
    return await _archived(await GameRecord.get_or_none(archive_token=token)
                           .prefetch_related("chat"))


async def _archived(row: GameRecord | None) -> Archived | None:
    if row is None or row.status != GameStatus.ENDED or row.setup is None:
        return None
    return Archived(row.id, await story_of_row(row), row.chat.locale or "en",
                    bool((row.settings or {}).get(TEAM_CHATS_SETTING)))


async def story_of_row(row: GameRecord) -> Story:
    entries = await LogEntry.filter(game_id=row.id).order_by("seq")
    return build_story(load_ruleset(row.ruleset), setup_from_json(row.setup or {}),
                       [command_from_json(e.command) for e in entries])


def page_path(token: str) -> str:
    """The archive page's path on the bot's HTTP server."""
    return f"/games/{token}"


def page_link(public_url: str, token: str) -> str:
    """Where the bot's HTTP server serves a game's archive page ("" without a public URL)."""
    return f"{public_url.rstrip('/')}{page_path(token)}" if public_url else ""


async def game_list(public_url: str = "") -> list[dict[str, object]]:
    """Every game with its id, for `nightfall games`: rule set, status, chat, players, start,
    and a finished game's archive link (its path, without a public URL)."""
    rows = await GameRecord.all().order_by("id").prefetch_related("chat")
    seated: dict[int, set[str]] = {}
    for seat in await Seat.filter(active=True):
        seated.setdefault(seat.game_id, set()).add(seat.pid)
    return [{"id": r.id, "ruleset": r.ruleset, "status": r.status,
             "link": (page_link(public_url, r.archive_token) or page_path(r.archive_token))
             if r.archive_token and r.status == GameStatus.ENDED else "",
             "chat": f"{r.chat.platform}:{r.chat.ref}",
             "players": len(seated.get(r.id, ())) if r.setup else 0,
             "created_at": r.created_at.isoformat(timespec="minutes")} for r in rows]
