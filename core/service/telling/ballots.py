"""The group's ballot for a window with a vote: its buttons, the live tally edited in place
under it, and its last version when the window closes."""

from __future__ import annotations

from typing import Any

from core.engine import Game, Outcome
from core.engine.events import Counted
from core.engine.ids import PlayerId
from core.engine.messages import Ref, RefKind, Tally
from core.engine.voice import Voiced
from core.storage.models import Ballot, GameRecord

from ..messages import outbox, texts
from ..messages.button_commands import MarkEarly, VoteFor
from ..messages.buttons import button
from ..messages.payloads import (
    BallotPayload,
    NameLabel,
    Part,
    PostPayload,
    StoredButton,
    TextLabel,
    part,
)
from ..messages.voiced import voiced, voiced_in_window
from ..ports.howto import HowTo, howto
from ..rows.game_rows import chat_of


def ballot_key(row: GameRecord) -> str:
    return f"ballot-{row.id}-{row.window}"


async def open_ballot(row: GameRecord, game: Game) -> tuple[StoredButton, ...]:
    """The vote's buttons: every living player, early (where the rules have it), withdraw
    (stored, and returned for the tallies to come)."""
    living = [p for p in game.state.players.values() if p.alive]
    buttons = [await button(row, None, NameLabel(Ref(RefKind.PLAYER, p.pid)),
                            VoteFor(p.pid)) for p in living]
    if game.ruleset.early_votes_open(game):
        buttons.append(await button(row, None, TextLabel(texts.EARLY_BUTTON), MarkEarly()))
    buttons.append(await button(row, None, TextLabel(texts.WITHDRAW_BUTTON),
                                VoteFor(None)))
    await Ballot.create(game=row, window=row.window, buttons=[b.to_json() for b in buttons])
    prompt = part(voiced(row, game, Voiced.VOTE_PROMPT))
    await outbox.to_group(await chat_of(row), BallotPayload(
        (prompt,), tuple(buttons), ballot_key(row), urgent=True), game=row)
    return tuple(buttons)


async def tally(row: GameRecord, game: Game,
                known: dict[tuple[int, int], tuple[StoredButton, ...]] | None = None) -> None:
    """The live tally, under the window's ballot: one group message, edited in place
    (adapters that cannot edit post the newest version). `known`: ballots already read
    (a ballot never changes once its window opened), filled in here."""
    chat = await chat_of(row)
    counts = tally_part(game, game.tally())
    key = (row.id, row.window)
    options = None if known is None else known.get(key)
    if options is None:
        ballot = await Ballot.get_or_none(game_id=row.id, window=row.window)
        options = None if ballot is None else stored_options(ballot.buttons)
        if options is not None and known is not None:
            known[key] = options
    if options is None:  # a vote without a ballot (a reaction window): the tally alone
        await outbox.to_group(chat, PostPayload((counts,), f"tally-{row.id}-{row.window}"),
                              game=row)
        return
    prompt = part(voiced(row, game, Voiced.VOTE_PROMPT))  # the same variant as it opened with
    await outbox.to_group(chat, BallotPayload((prompt, counts), options, ballot_key(row)),
                          game=row)


def stored_options(buttons: list[Any]) -> tuple[StoredButton, ...]:
    """A ballot's buttons as its row keeps them."""
    return tuple(StoredButton.from_json(b) for b in buttons)


async def close_ballot(row: GameRecord, game: Game, outcome: Outcome) -> None:
    """The window with a ballot has closed: its last version has no buttons (nobody
    presses a stale one, a poll ends) and shows the count that decided, if the rules
    counted (the result follows from them), with the platform's word on which votes it
    took: a Matrix client shows its own count of the poll's answers beside it, which
    misses the votes typed as commands and the ballot's other polls."""
    if not await Ballot.exists(game_id=row.id, window=row.window):
        return
    counted = next((e.votes for e in outcome.events if isinstance(e, Counted)), None)
    more = () if counted is None else (
        tally_part(game, counted, final=True),
        part(texts.TALLY_OFFICIAL, how=howto(HowTo.VOTE_COUNT)))
    await outbox.to_group(await chat_of(row), BallotPayload(
        (part(voiced_in_window(row, game.ruleset.voice, Voiced.VOTE_CLOSED, row.window)),
         *more), (), ballot_key(row)), game=row)


def tally_part(game: Game, votes: dict[PlayerId, int], final: bool = False) -> Part:
    """Who has how many votes, most first (seat order among equals)."""
    counts = sorted(((n, pid) for pid, n in votes.items() if n > 0),
                    key=lambda item: (-item[0], game.state.players[item[1]].seat))
    if not counts:
        return part(texts.TALLY_FINAL_EMPTY if final else texts.TALLY_EMPTY)
    return part(texts.TALLY_FINAL if final else texts.TALLY,
                        tally=tuple(Tally(Ref(RefKind.PLAYER, pid), n) for n, pid in counts))
