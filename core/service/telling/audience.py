"""An outcome's messages into the outbox, each to the people its audience names: the group,
a player's seat, a team's members now, or the host."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import assert_never

from core.engine import Game, Message, Outcome
from core.engine.ids import PlayerId
from core.engine.messages import Group, Text, ToHost, ToPlayer, ToTeam
from core.storage.models import GameRecord, Identity

from ..messages import outbox
from ..messages.payloads import Part, PostPayload, message_part, text_part
from ..rows.game_rows import chat_of, host_of, seat_identities


async def deliver_outcome(row: GameRecord, game: Game, outcome: Outcome,
                          urgent: bool = False, one_group_message: bool = False,
                          epilogue: Sequence[Sequence[Text]] = (), together: bool = False,
                          preface: Sequence[Part] = ()) -> None:
    """The engine's messages to their readers; `urgent` ones (the opening's role cards, what
    a closed window decided) notify where a platform keeps a bot's messages quiet, the rest
    (what answers a command in the middle of a window) does not. With `one_group_message`
    (the end of a game: its result, every role, who left when) the group's texts go out as
    one message of many paragraphs, which a platform splits only at its length limit, the
    `epilogue` (the story's blocks of lines: every player's role, side and fate; the bonds)
    after them, each block one paragraph of a line per entry; the private and team news of
    the last night go out before it, so that the summary is the game's last word (it makes
    public what they tell, so none of them shows a secret the group has not read). With
    `together` (the opening) each reader's texts go out as one message of several paragraphs,
    the group's after the `preface`: every message spends the bot's budget with the platform
    (a group's is 20 a minute), and the opening tells everybody several things at once."""
    seats = await seat_identities(row)
    host = await host_of(row)
    chat = await chat_of(row)
    if together:
        each: dict[int | None, tuple[Identity | None, list[Part]]] = {}
        if preface:
            each[None] = (None, list(preface))
        for message in outcome.messages:
            for person in _readers(game, message, seats, host):
                key = None if person is None else person.id
                each.setdefault(key, (person, []))[1].append(message_part(message))
        for person, parts in each.values():
            together_payload = PostPayload(tuple(parts), urgent=urgent, seq=row.version)
            if person is None:
                await outbox.to_group(chat, together_payload, game=row)
            else:
                await outbox.to_person(person, together_payload, game=row)
        return
    private = [m for m in outcome.messages if not isinstance(m.audience, Group)]
    for message in private if one_group_message else outcome.messages:
        payload = PostPayload((message_part(message),), urgent=urgent,
                              seq=row.version,  # the command behind it
                              purpose=message.purpose)
        for person in _readers(game, message, seats, host):
            if person is None:
                await outbox.to_group(chat, payload, game=row)
            else:
                await outbox.to_person(person, payload, game=row)
    if one_group_message:
        told = [message_part(m) for m in outcome.messages if isinstance(m.audience, Group)]
        told += [replace(text_part(text), line=i > 0)
                 for block in epilogue for i, text in enumerate(block)]
        if told:
            await outbox.to_group(chat, PostPayload(tuple(told), urgent=urgent,
                                                    seq=row.version), game=row)


def _readers(game: Game, message: Message, seats: dict[PlayerId, Identity],
             host: Identity) -> list[Identity | None]:
    match message.audience:
        case Group():
            return [None]
        case ToPlayer(pid=pid):
            return [seats[pid]] if pid in seats else []
        case ToTeam(team=team):
            return [seats[m] for m in game.ruleset.team_members(game, team) if m in seats]
        case ToHost():
            return [host]
        case unknown:
            assert_never(unknown)
