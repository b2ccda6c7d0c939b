"""What the command did to its window: a closed window makes way for the next (its
deadline, ballot and keyboards) or for the game's end; a window that goes on has its
deadline moved by the host's timing, or its live tally updated by a vote."""

from __future__ import annotations

from collections.abc import Sequence

from core import spoken
from core.engine import HOST_COMMANDS, Game, Message, Vote
from core.engine.commands import MarkEarly
from core.storage.models import GameRecord

from ...messages import outbox, texts
from ...messages.payloads import post
from ...rows.game_rows import chat_of
from ...telling.ballots import open_ballot, tally
from ...telling.prompts import offer_keyboards
from ..applied import Applied, Held
from ..deadline_times import DEFAULT_TZ
from ..deadlines import void
from .ending import end_the_game


async def move_on(applied: Applied, held: Held) -> None:
    row, game, command = applied.row, applied.game, applied.command
    if applied.new_window:
        row.window += 1
        await void(row)
        if applied.ended:
            await end_the_game(applied, held)
        else:
            await open_window(row, game, held, applied.asked)
    elif isinstance(command, HOST_COMMANDS):
        await held.deadlines.host_timing(row, command)
    elif isinstance(command, (Vote, MarkEarly)):
        await tally(row, game, held.ballots)


async def open_window(row: GameRecord, game: Game, held: Held,
                      asked: Sequence[Message] = ()) -> None:
    """A new window: the group's ballot (if it has a vote) and each actor's keyboards
    (under the game's own question, where it `asked` one), then its deadline, which may
    wait for them to go out (deadlines.py); at the forum pace the deadline is told with its
    weekday and clock time, where the rule set's texts said "until the deadline"."""
    if game.ruleset.voting_open(game):
        held.ballots[row.id, row.window] = await open_ballot(row, game)
    await offer_keyboards(row, game, asked)
    due = await held.deadlines.window_opened(row, game)
    settings = row.settings or {}
    if due is not None and settings.get("pace") == "forum":  # the day's clock, as forums post it
        await outbox.to_group(await chat_of(row), post(
            texts.WINDOW_DUE, phase=spoken.phase(game.state.phase),
            due=spoken.due(due, settings.get("tz") or DEFAULT_TZ)), game=row)
