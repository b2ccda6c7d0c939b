"""Telling the host what never arrived: a message the platform refused for good (not an
outage, which is waited out, see delivery/outage.py) leaves a player without his role card or a
group without its vote, and only the host can make up for it.

The host hears, privately and in his own language, whom the message was for and what kind
of message it was — never its text, which may be somebody's secret (a role, a check). Once
per game, recipient and kind: a chat that refuses everything does not flood him.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Literal

from core.engine.messages import N_
from core.storage.models import GameRecord, Identity, Outbox, Told

from ..messages import outbox
from ..messages.payloads import (
    BallotPayload,
    KeyboardPayload,
    Payload,
    PostPayload,
    SilencePayload,
    TeamPayload,
    from_json,
    post,
)

log = logging.getLogger(__name__)

Kind = Literal["role_card", "prompt", "private", "announcement", "vote", "mute", "team_room"]

TEXTS: dict[Kind, str] = {
    "role_card": N_("I could not deliver {name}'s role card: the platform refused it for "
                    "good. Without it they cannot play their role; /replace can give the seat "
                    "to somebody else."),
    "prompt": N_("I could not deliver a prompt to {name} (a night action or a choice to "
                 "make): the platform refused it for good. They can still act with a "
                 "command in their private chat with me."),
    "private": N_("I could not deliver a private message to {name}: the platform refused it "
                  "for good."),
    "announcement": N_("I could not post an announcement in your game's group: the platform "
                       "refused it for good. /status in the group shows where the game is."),
    "vote": N_("I could not post the vote in your game's group: the platform refused it for "
               "good. The players can still vote with /vote NAME."),
    "mute": N_("I could not mute or unmute {name} in your game's group: the platform "
               "refused it for good."),
    "team_room": N_("I could not set up or update a team room of your game: the platform "
                    "refused it for good."),
}
TOLD_PREFIX = "undelivered-"  # the Told kind, with the message's kind after it


def kind_of(row: Outbox, payload: Payload) -> Kind:
    """What a row was, in the words the host knows (the opening's private messages are the
    role card, see recap.py)."""
    if isinstance(payload, SilencePayload):
        return "mute"
    if isinstance(payload, TeamPayload):
        return "team_room"
    if isinstance(payload, BallotPayload):
        return "vote"
    if not row.private:
        return "announcement"
    if isinstance(payload, KeyboardPayload):
        return "prompt"
    if isinstance(payload, PostPayload) and payload.seq == 0:
        return "role_card"
    return "private"


def _is_notice(payload: Payload) -> bool:
    """One of these notices itself (a host who cannot be written to is not told so)."""
    return isinstance(payload, PostPayload) and payload.delivery_notice


async def tell_host(row: Outbox) -> None:
    """The row failed for good: tell its game's host whom and what, once."""
    if row.game_id is None:
        return  # no game, no host to tell (a reply to a command outside any game)
    payload = from_json(row.payload)
    if _is_notice(payload):
        return
    game = await GameRecord.get_or_none(id=row.game_id)
    if game is None:
        return
    kind = kind_of(row, payload)
    recipient = row.identity_id if row.identity_id is not None else game.host_id
    chat_id = None if row.private else game.chat_id  # the group's messages: told per group
    told = f"{TOLD_PREFIX}{kind}"
    if await Told.exists(kind=told, game_id=game.id, identity_id=recipient, chat_id=chat_id):
        return
    await Told.create(kind=told, game_id=game.id, identity_id=recipient, chat_id=chat_id)
    person = await Identity.get_or_none(id=row.identity_id) if row.identity_id else None
    host = await Identity.get(id=game.host_id)
    log.warning("delivery %s: %s for %s not delivered; host told", row.id, kind,
                "the group" if person is None else f"identity {person.id}")
    notice = post(TEXTS[kind]) if person is None else post(TEXTS[kind], name=person.name)
    # it asks the host to make up for it (a /replace, a word in the group): it must ring
    await outbox.to_person(host, replace(notice, asks=host.id, delivery_notice=True),
                           game=game)
