"""`/balance` in the lobby: the balance advisor (core/balance) for the table as it is set up
— the role list or the rule set's deal, the options, the players signed up (or a count
given: `/balance 12`), at a skill preset (`/balance sharp`, `/balance scharfsinnig`) or, once
this chat has finished enough games, at the skill they fit — and what those games say. The
shipped tables answer at once; a custom list is estimated in a worker process, announced
with how long it may take, and posted by the scheduler's next tick once done (the bot keeps
answering meanwhile). After `/setroles` and `/option` the edited sign-up ends with the
table's answer in a line, or with a pointer to `/balance` for a list the tables do not
hold."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from core.balance.answer import from_table, instant
from core.balance.presets import DEFAULT, Assumed, Preset
from core.balance.render import (
    ILLEGAL,
    NO_ADVICE,
    NOT_IN_TABLES,
    PLAYERS,
    USAGE,
    WORKING,
    advice_texts,
    summary_text,
)
from core.balance.setups import Setup, legal, setup_of
from core.balance.tally import Players
from core.balance.worker import SECONDS, Job
from core.engine.messages import Either, Text
from core.engine.registry import load_ruleset
from core.engine.ruleset import SetupError
from core.storage.models import Chat, GameRecord, Identity, Seat
from core.storage.states import GameStatus
from core.storage.transaction import transaction

from ..messages import outbox, texts
from ..messages.payloads import Part, PostPayload, text_part
from ..ports.replies import Reply
from ..telling.settings_view import current_options
from .balance_record import chat_record, record_texts
from .context import ServiceContext
from .group_commands import GroupCommands
from .typed_values import read_skill, skill_choices

log = logging.getLogger(__name__)
TICK = 0.25  # how often a running estimate is looked at


class BalanceRoom(GroupCommands):
    """`/balance`; `lock`: the service's, taken to post a finished estimate; `seconds` and
    `players_play`: what an on-demand estimate may take and who plays it (tests shorten it)."""

    def __init__(self, service: ServiceContext, lock: asyncio.Lock,
                 seconds: float = SECONDS, players_play: Players = Players.INFORMED) -> None:
        super().__init__(service)
        self.lock = lock
        self.seconds = seconds
        self.players_play = players_play
        self.jobs: list[tuple[Job, int, int]] = []  # each with its chat's and game's ids

    async def _cmd_balance(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        row = await self.service.current_game(chat)
        if row is None:
            raise Reply(texts.NO_GAME)
        if row.status != GameStatus.LOBBY:
            raise Reply(texts.NOT_IN_LOBBY)
        count, asked = _read(rest)
        setup = await lobby_setup(row, count)
        games, fit = await chat_record(chat.id, setup.ruleset)
        skill: Assumed = asked or (fit.assumed if fit is not None else DEFAULT)
        advice = instant(setup, skill)
        if advice is not None:
            await outbox.to_group(chat, _payload([*advice_texts(advice), *record_texts(
                setup.ruleset, games, fit)]), game=row)
            return
        await outbox.to_group(chat, _payload([Text(WORKING, {"seconds": int(self.seconds)})]),
                              game=row)
        self.jobs.append((Job(setup, skill, self.seconds, players_play=self.players_play),
                          chat.id, row.id))

    async def post_finished(self) -> None:
        """Post the estimates whose workers are done, each in a transaction of its own (the
        scheduler's tick calls it, outside any command)."""
        for waiting in [w for w in self.jobs if w[0].poll()]:
            self.jobs.remove(waiting)
            job, chat_id, row_id = waiting
            try:
                async with self.lock, transaction():
                    chat = await Chat.get(id=chat_id)
                    row = await GameRecord.get_or_none(id=row_id)
                    said = ([*advice_texts(job.advice), *record_texts(
                        job.setup.ruleset, *await chat_record(chat.id, job.setup.ruleset))]
                        if job.advice is not None else [Text(NO_ADVICE, {})])
                    await outbox.to_group(chat, _payload(said), game=row)
            except Exception:
                log.exception("the balance estimate for game %s could not be posted", row_id)

    async def settled(self) -> None:
        """Until every running estimate's worker is done (tests: then the tick posts them)."""
        while not all(job.poll() for job, _, _ in self.jobs):
            await asyncio.sleep(TICK)


async def balance_note(row: GameRecord) -> tuple[Part, ...]:
    """After `/setroles` and `/option`, a line in the edited sign-up: the balance of the new
    setup from the tables (or an earlier estimate), at once, at the skill the chat's games fit
    or else the default preset, or where they do not hold it a pointer to `/balance`;
    nothing for a setup that cannot be dealt (its own refusal says why at the start)."""
    try:
        setup = await lobby_setup(row, None)
    except Reply:
        return ()
    _, fit = await chat_record(row.chat_id, setup.ruleset)
    skill: Assumed = fit.assumed if fit is not None else DEFAULT
    advice = instant(setup, skill) or from_table(setup, skill)
    said = summary_text(advice) if advice is not None else Text(NOT_IN_TABLES,
                                                               {"seconds": int(SECONDS)})
    return (text_part(said),)


async def lobby_setup(row: GameRecord, count: int | None) -> Setup:
    """The table the sign-up would start: the host's list (its length is the count), else
    the rule set's deal for `count` or the players signed up (at least the fewest the game
    takes)."""
    ruleset = load_ruleset(row.ruleset)
    roles: list[str] | None = (row.settings or {}).get("roles")
    options: dict[str, Any] = current_options(row)
    if count is None:
        signed = await Seat.filter(game_id=row.id, active=True).count()
        count = len(roles) if roles else max(signed, ruleset.min_players)
    if not ruleset.min_players <= count <= ruleset.max_players:
        raise Reply(PLAYERS, low=ruleset.min_players, high=ruleset.max_players)
    try:
        setup = setup_of(row.ruleset, count, roles, options)
    except SetupError as err:
        raise Reply.saying(err.text) from None
    if not legal(setup):
        raise Reply(ILLEGAL)
    return setup


def _read(rest: str) -> tuple[int | None, Preset | None]:
    """`/balance [players] [skill]`, in any order, the skill in any of the bot's languages
    and of one word or more ("neue Runde"); no skill named: None. Anything else is refused
    with the skills in the reader's words."""
    words = rest.split()
    counts = [int(w) for w in words if w.isdigit()]
    named = " ".join(w for w in words if not w.isdigit())
    skill = read_skill(named) if named else None
    if len(counts) > 1 or (named and skill is None):
        raise Reply(USAGE, presets=Either(skill_choices()), example=skill_choices()[-1])
    return (counts[0] if counts else None), (Preset(skill) if skill else None)


def _payload(said: list[Text]) -> PostPayload:
    return PostPayload(tuple(text_part(t) for t in said))
