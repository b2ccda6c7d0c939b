"""Posting for the outbox, one method per kind of message: a `Post` is a text message, a
`Keyboard` a text message with its options numbered (a number, a label or a keycap reaction
presses one), a `Ballot` polls and a text message beside them (ballots.py), a `Picture` an
uploaded `m.image` (pictures.py). The first version
of a message is posted; later versions (same `replace` key) edit it in place. Every send
carries its outbox row's transaction id, so the homeserver drops a repeat.

The first post of a message that has later versions carries a transaction id of the message
(its room and `replace` key), not of its row: a kill between the post and keeping its event
id leaves the row "sending", and a newer version may supersede it before the bot is back.
That version, finding no event id, posts under the same transaction id, so the homeserver
answers with the event already there instead of posting it a second time, and then edits it
to what it says now (a "posting" mark, kept until the event id is, tells it to)."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

from nio import AsyncClient, ErrorResponse

from core.service import (
    Ballot,
    ChatMoved,
    ChatRef,
    Keyboard,
    LostReason,
    Outgoing,
    Picture,
    Post,
    Reader,
    TransientError,
)

from ..protocol import content
from ..protocol.errors import NETWORK_ERRORS, Failed, network, translate
from ..protocol.room_state import RoomState
from ..settings import MatrixSettings
from ..store import MatrixStore
from . import pictures
from .ballots import Ballots, keep_keyboard, pending
from .crypto import CRYPTO_ERRORS, Crypto
from .levels import Levels
from .rooms import PrivateRooms
from .standing import Standings


class Sender:
    def __init__(self, client: AsyncClient, state: RoomState, levels: Levels,
                 rooms: PrivateRooms, standing: Standings, crypto: Crypto | None,
                 store: MatrixStore, settings: MatrixSettings, txn_prefix: str) -> None:
        self.client = client
        self.state = state
        self.levels = levels
        self.rooms = rooms
        self.standing = standing
        self.crypto = crypto
        self.store = store
        self.settings = settings
        self.user_id = settings.user_id
        self.txn_prefix = txn_prefix  # this database's, for transaction ids (outbox ids restart)
        self.ballots = Ballots(self.send_event, store)

    async def send_post(self, post: Post) -> None:
        await self._send(post, self._text)

    async def send_keyboard(self, keyboard: Keyboard) -> None:
        await self._send(keyboard, self._text)

    async def send_ballot(self, ballot: Ballot) -> None:
        await self._send(ballot, self._ballot)

    async def send_picture(self, picture: Picture) -> None:
        await self._send(picture, self._picture)

    def txn(self, outbox_id: int) -> str:
        """The transaction id of what an outbox row posts: a retry is posted once."""
        return f"nightfall-{self.txn_prefix}-{outbox_id}"

    async def first_post(self, room_id: str, replace: str, kind: str,
                         outbox_id: int) -> tuple[str, bool]:
        """The transaction id for the first post of the message `replace` (as a text or as a
        poll, `kind`), the same for each of its versions; and whether an earlier version may
        already stand in the room under it (its row was caught mid-send), so that this one
        has to edit what the homeserver answers with."""
        mark = await self.store.load("posting", room_id, replace)
        if mark is None:
            await self.store.save(outbox_id, "posting", room_id, replace)
        digest = hashlib.sha256(f"{room_id}\n{replace}\n{kind}".encode()).hexdigest()[:24]
        return f"nightfall-{self.txn_prefix}-first-{digest}", \
            mark not in (None, outbox_id)

    async def _send(self, message: Outgoing,
                    deliver: Callable[[str, Any], Awaitable[None]]) -> None:
        """Into the group's room or the reader's private room, the platform's failures
        raised as the outbox's."""
        to = message.to
        private = isinstance(to, Reader)
        where = to.user.id if isinstance(to, Reader) else to.chat
        moved = None if private else self.standing.moved_to(where)
        if moved is not None:  # an upgraded room: the message goes to its replacement
            raise ChatMoved(f"matrix: {where} was upgraded", ChatRef(moved))
        try:
            room_id = await self.rooms.room_for(where) if private else where
            await deliver(room_id, message)
        except Failed as failed:
            gone = self.state.membership(where, self.user_id) != "join"
            raise translate(failed.response, private,
                            lost=LostReason.REMOVED if gone else LostReason.SILENCED) from failed
        except NETWORK_ERRORS as err:
            raise network(err) from err
        except CRYPTO_ERRORS as err:  # e.g. the members' keys could not be fetched: later
            raise TransientError(f"matrix: not encrypted: {err}") from err

    async def _text(self, room_id: str, message: Post | Keyboard) -> None:
        """A text message (a keyboard's options numbered under it), or an edit of it."""
        buttons = message.buttons if isinstance(message, Keyboard) else ()
        text = content.with_options(message.text, [b.label for b in buttons])
        txn = self.txn(message.outbox_id)
        ref = await self.store.load("ref", room_id, message.replace) if message.replace else None
        if ref is not None:
            msgtype = str(ref.get("msgtype", content.NOTICE))
            await self.send_event(room_id, "m.room.message",
                                  content.edit(ref["event_id"], text, msgtype), txn)
            if isinstance(message, Keyboard) and buttons:
                await self._keep_keyboard(ref["event_id"], room_id, message)
            return
        loud = await self._loudness(room_id, message)
        asks = message.asks if not isinstance(message.to, Reader) else None
        html = content.with_pill(text, asks.user.id, asks.name) if asks else None
        first, earlier = (txn, False) if not message.replace else \
            await self.first_post(room_id, message.replace, "text", message.outbox_id)
        if isinstance(message, Keyboard) and buttons:
            await keep_keyboard(self.store, pending(first), room_id, isinstance(message.to, Reader),
                                buttons)
        event_id = await self.send_event(room_id, "m.room.message",
                                         content.message(text, *loud, html), first)
        if isinstance(message, Keyboard) and buttons:
            await self._keep_keyboard(event_id, room_id, message)
        if message.replace:
            await self.store.save({"kind": "text", "event_id": event_id, "msgtype": loud[0]},
                             "ref", room_id, message.replace)
            await self.store.drop("posting", room_id, message.replace)
            if earlier:  # the event may show the earlier version's text
                await self.send_event(room_id, "m.room.message",
                                      content.edit(event_id, text, loud[0]), txn)

    async def _picture(self, room_id: str, picture: Picture) -> None:
        """The PNG uploaded (encrypted where the room is), then its `m.image` event."""
        client = self.client
        encrypted = False
        if self.crypto is not None:
            await self.crypto.before_send(room_id)
            encrypted = client.rooms[room_id].encrypted
        uploaded = await pictures.upload(client, self.store, picture, encrypted)
        await self.send_event(room_id, "m.room.message",
                              pictures.image_content(picture, uploaded),
                              self.txn(picture.outbox_id))
        await pictures.sent(self.store, picture)

    async def _ballot(self, room_id: str, ballot: Ballot) -> None:
        """Polls and their text message (ballots.py); later versions edit the text (the live
        tally), the last one ends the polls. A ballot whose only version to go out is its
        last (the earlier ones were superseded) is a text: nothing is left to vote on."""
        txn = self.txn(ballot.outbox_id)
        ref = await self.store.load("ref", room_id, ballot.replace)
        if (ref is None and not ballot.options) or (ref is not None and ref["kind"] != "poll"):
            await self._text(room_id, Post(ballot.outbox_id, ballot.to, ballot.text,
                                           ballot.replace, ballot.urgent))
            return
        if ref is not None:
            updated = await self.ballots.update(room_id, ref, ballot, txn)
            if updated != ref:
                await self.store.save(updated, "ref", room_id, ballot.replace)
            return
        loud = await self._loudness(room_id, ballot)
        first, earlier = await self.first_post(room_id, ballot.replace, "poll",
                                               ballot.outbox_id)
        ref = await self.ballots.post(room_id, ballot, first, loud)
        await self.store.save(ref, "ref", room_id, ballot.replace)
        await self.store.drop("posting", room_id, ballot.replace)
        if earlier:  # the text beside the polls may show the earlier version's tally
            await self.ballots.update(room_id, ref, ballot, txn)

    async def _loudness(self, room_id: str, message: Outgoing) -> content.Loudness:
        """How a message is to notify (content.loudness): one that asks a person to act
        mentions him; another urgent one in the group pings the room if the settings allow
        it and the room's power levels let the bot."""
        to = message.to
        if isinstance(to, Reader):
            return content.loudness(message.urgent, to.user.id, False)
        asks = message.asks if isinstance(message, Post | Keyboard) else None
        if asks is not None:
            return content.loudness(True, None, False, asks.user.id)
        if not message.urgent:
            return content.loudness(False, None, False)
        ping = self.settings.room_mentions and content.may_ping_room(
            await self.levels.of(room_id), self.state.power_of(room_id, self.user_id))
        return content.loudness(True, None, ping)

    async def _keep_keyboard(self, event_id: str, room_id: str, keyboard: Keyboard) -> None:
        """Remember what each number of a numbered keyboard presses (for replies and
        reactions); a private room's newest keyboard answers plain numbers."""
        private = isinstance(keyboard.to, Reader)
        await keep_keyboard(self.store, event_id, room_id, private, keyboard.buttons)
        if private:
            await self.store.save(event_id, "kbroom", room_id)

    async def send_event(self, room_id: str, kind: str, body: dict[str, Any],
                         txn: str | None = None) -> str:
        if self.crypto is not None:
            await self.crypto.before_send(room_id)
        # a bot cannot verify anyone: every member's device gets the room key (its own
        # device is cross-signed by the bot, see cross_signing.py, but verifies nobody)
        response = await self.client.room_send(room_id, kind, body, tx_id=txn,
                                          ignore_unverified_devices=True)
        if isinstance(response, ErrorResponse):
            raise Failed(response)
        return str(response.event_id)
