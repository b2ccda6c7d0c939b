"""What a front end that drives the service itself asks of it beyond updates: the console
(its script, its demo's simulated players) has its group chat set up in a language before
anyone writes, and the demo's players look at where the running game stands to answer its
keyboards and wait for its deadline, and `nightfall play` tells which saved game it resumes.
They read it here instead of in the tables."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine import Game
from core.storage.models import Chat, Deadline, GameRecord, Seat
from core.storage.states import CURRENT, DeadlineState, GameStatus

from ..games.deadlines import WINDOW_KINDS
from ..games.running import Games


@dataclass(frozen=True, slots=True)
class Running:
    """A running game: its row id, its window counter and its live state."""

    game_id: int
    window: int
    game: Game


async def open_group(platform: str, ref: str, locale: str) -> None:
    """The group chat, in this language (English leaves a chosen language alone)."""
    chat, created = await Chat.get_or_create(platform=platform, ref=ref,
                                             defaults={"locale": locale})
    if not created and chat.locale != locale and locale != "en":
        chat.locale = locale
        await chat.save(update_fields=["locale"])


async def running(games: Games, platform: str, ref: str) -> Running | None:
    """The chat's running game, if any."""
    row = await GameRecord.filter(chat__platform=platform, chat__ref=ref,
                                  status=GameStatus.RUNNING).first()
    if row is None:
        return None
    return Running(row.id, row.window, await games.load(row))


@dataclass(frozen=True, slots=True)
class Saved:
    """A game not over in a chat when a front end starts: `nightfall play` says it resumes it."""

    game_id: int
    ruleset: str
    signing_up: bool  # else it is being played
    players: int


async def saved_game(platform: str, ref: str) -> Saved | None:
    """The chat's sign-up or running game, if the database holds one."""
    row = await GameRecord.filter(chat__platform=platform, chat__ref=ref,
                                  status__in=CURRENT).order_by("-id").first()
    if row is None:
        return None
    return Saved(row.id, row.ruleset, row.status == GameStatus.LOBBY,
                 await Seat.filter(game_id=row.id).count())


async def window_of(game_id: int) -> int:
    """The game's window counter now (it moves on when a window closes)."""
    return (await GameRecord.get(id=game_id)).window


async def next_due(game_id: int) -> float | None:
    """When the game's next deadline or reminder is due (the demo waits for each, so that a
    reminder tells the time that is really left)."""
    due = await Deadline.filter(game_id=game_id, kind__in=WINDOW_KINDS,
                                state=DeadlineState.PENDING) \
        .order_by("due_at").first()
    return None if due is None else due.due_at
