"""News from a platform about a person rather than a command from them (`ports.Situation`):
messages the bot cannot decrypt, a private room it will not
use, an invitation nobody accepted, a private room opened at last (what waited for him is
sent then). The person is told privately; where the group must know
(it would otherwise wait for commands that never reach the bot), their game's group is told
too (the chat where it happened, else his game's), once per game and person.
"""

from __future__ import annotations

from dataclasses import replace

from core.storage.models import Chat, GameRecord, Identity, Seat, Told
from core.storage.states import CURRENT

from ..messages import outbox, texts
from ..messages.payloads import post
from ..ports.contract import Incoming, Situation

# ("edited" is answered by commands/edits.py: it may withdraw a vote)
PRIVATE: dict[Situation, str] = {
    "unreadable": texts.UNREADABLE_YOU,
    "encrypted_room": texts.ENCRYPTED_ROOM,
}
GROUP: dict[Situation, str] = {
    "unreadable": texts.UNREADABLE_PLAYER,
    "invite_waiting": texts.INVITE_WAITING,
}


async def tell(incoming: Incoming, person: Identity, chat: Chat | None) -> None:
    """Tell the person, and where it matters the group: `chat` where the platform saw it
    happen, else his current game's."""
    situation = incoming.situation
    assert situation is not None
    if situation == "opened":  # he can read his private chat now: what waited goes there
        await outbox.reopen(person)
        return
    row = await _current_game(person)
    private = PRIVATE.get(situation)
    if private is not None:  # each asks him to act (write again, here, or share keys)
        await outbox.to_person(person, replace(post(private), asks=person.id), game=row)
    group = GROUP.get(situation)
    if chat is None and row is not None:
        chat = await row.chat
    if group is None or chat is None:
        return
    game = row if row is not None and row.chat_id == chat.id else None
    if await Told.exists(kind=situation, chat_id=chat.id, game_id=game.id if game else None,
                         identity_id=person.id):
        return
    await Told.create(kind=situation, chat=chat, game=game, identity=person)
    await outbox.to_group(chat, replace(post(group, name=person.name), asks=person.id),
                          game=game)  # it asks him to act: he is mentioned


async def _current_game(person: Identity) -> GameRecord | None:
    """The game the person sits in (sign-up or running), if any: its group is told."""
    seat = await Seat.filter(identity_id=person.id, active=True,
                             game__status__in=CURRENT).order_by("-game_id").first()
    return None if seat is None else await GameRecord.get(id=seat.game_id)

