"""What people write, react and answer in the bot's rooms, handed to the service as
`Incoming`: commands in a game room, anything in a private room (a number or a label there
presses the newest keyboard's button), keycap reactions on a numbered keyboard, answers to the
bot's polls; a person leaving a game room or coming back (a `Membership`). What the bot
cannot read (an undecryptable event) or an edited command is told to its sender rather than
dropped silently."""

from __future__ import annotations

import logging
from typing import Any

from nio import AsyncClient

from adapters.text_choices import chosen
from core.service import Notice

from ..protocol import content, polls
from ..protocol.directory import Directory
from ..protocol.errors import NETWORK_ERRORS, Failed
from ..protocol.incoming import (
    as_command,
    is_edit,
    keycap_number,
    mention_names,
    message_body,
    relation,
)
from ..protocol.members import membership_news
from ..protocol.seen import Seen
from ..settings import MatrixSettings
from ..store import MatrixStore
from .ballots import pending
from .crypto import CRYPTO_ERRORS, Crypto
from .levels import Levels
from .rooms import PrivateRooms
from .routes import Routes
from .send import Sender
from .telling import Teller

log = logging.getLogger(__name__)
MAX_EVENT_ATTEMPTS = 3  # an event the service keeps failing on is skipped after that


class Receiver:
    def __init__(self, client: AsyncClient, *, directory: Directory, routes: Routes,
                 levels: Levels, rooms: PrivateRooms, sender: Sender, crypto: Crypto | None,
                 seen: Seen, teller: Teller, store: MatrixStore, settings: MatrixSettings,
                 display_name: str | None) -> None:
        self.client = client
        self.directory = directory
        self.routes = routes
        self.levels = levels
        self.rooms = rooms
        self.sender = sender
        self.crypto = crypto
        self.seen = seen
        self.teller = teller
        self.store = store
        self.settings = settings
        self.user_id = settings.user_id
        self.display_name = display_name
        self._failures: dict[str, int] = {}  # event id → failed attempts to hand it over

    async def on_event(self, room_id: str, event: dict[str, Any]) -> None:
        event_id = event.get("event_id")
        if not isinstance(event_id, str) or event_id in self.seen:
            return
        if self.crypto is not None and event.get("type") == "m.room.encrypted" and \
                event.get("sender") != self.user_id:
            self.crypto.hold(room_id, event)  # not read yet: handled once its key comes
            return
        self.routes.note(room_id, event)
        try:
            if event.get("sender") != self.user_id and "state_key" not in event:
                await self._dispatch(room_id, event_id, event)
            elif self.directory.is_group(room_id):  # leaving a game room leaves its game
                news = membership_news(room_id, event, self.user_id)
                if news is not None:
                    await self.teller.tell(news)
        except Exception:
            failures = self._failures[event_id] = self._failures.get(event_id, 0) + 1
            if failures < MAX_EVENT_ATTEMPTS:
                raise  # the sync token stays: the event is read (and handed) again
            log.exception("matrix: event %s in %s failed %s times; skipped", event_id,
                          room_id, failures)
        self._failures.pop(event_id, None)
        self.seen.remember(event_id)

    async def _dispatch(self, room_id: str, event_id: str, event: dict[str, Any]) -> None:
        kind = event.get("type")
        body = event.get("content") or {}
        sender = str(event.get("sender", ""))
        if kind == "m.room.message":
            await self._on_message(room_id, event_id, sender, body)
        elif kind == "m.reaction":
            await self._on_reaction(room_id, event_id, sender, body)
        elif kind in polls.RESPONSE_TYPES:
            await self._on_poll_response(room_id, event_id, sender, body)
        elif kind == "m.room.encrypted":
            log.info("matrix: cannot read an encrypted event in %s (encryption is off)",
                     room_id)
            await self.teller.unreadable(room_id, event)

    async def _on_message(self, room_id: str, event_id: str, sender: str,
                          body: dict[str, Any]) -> None:
        directory = self.directory
        mentions = mention_names(self.user_id, self.display_name)
        if is_edit(body):  # edits never count, as the rules say: the service answers (a
            # command's author is told; a vote in the edited message is withdrawn)
            new = body.get("m.new_content")
            text = message_body(new) if isinstance(new, dict) else None
            private = room_id in directory.private
            if text is not None:
                await self._hand(room_id, event_id, sender, private, text=text,
                                 command=as_command(text, mentions), situation="edited",
                                 edits=relation(body)[1])
            return
        text = message_body(body)
        if not text:
            return
        command = as_command(text, mentions)
        team = directory.teams.get(room_id)
        if team is not None:  # the members read it here; a command is answered in private
            await self._hand(room_id, event_id, sender, True, text=text, command=command,
                             team=None if command else team)
            return
        if room_id in directory.private:
            token = await self._keyboard_choice(room_id, text)
            if token is not None:
                await self._press(room_id, event_id, sender, token, private=True)
                return
            await self._hand(room_id, event_id, sender, True, text=text, command=command)
            return
        if command is not None:
            admin = await self.levels.is_admin(room_id, sender)
            notice = await self._hand(room_id, event_id, sender, False, text=text,
                                      command=command, admin=admin, message=event_id)
            if notice is not None and notice.taken:  # a typed vote that counted
                await self._mark(room_id, event_id, content.COUNTED)
        else:
            await self._hand(room_id, event_id, sender, False, text=text)
            if await self.store.load("unmutable", room_id, sender) is not None:
                await self._mark(room_id, event_id, content.OUT_OF_GAME)

    async def _mark(self, room_id: str, event_id: str, key: str) -> None:
        """A quiet reaction of the bot's on a message (see `content.reaction`), once: its
        transaction id is the message's."""
        try:
            await self.sender.send_event(room_id, "m.reaction",
                                         content.reaction(event_id, key),
                                         f"nightfall-mark-{event_id}")
        except (Failed, *NETWORK_ERRORS, *CRYPTO_ERRORS) as err:
            log.info("matrix: no %s on %s: %s", key, event_id, err)

    async def _keyboard_choice(self, room_id: str, text: str) -> str | None:
        """A number or an option's label written in a private room: the matching button of
        the room's newest keyboard (the service answers if its window is over)."""
        latest = await self.store.load("kbroom", room_id)
        keyboard = await self.store.load("kb", latest) if latest else None
        if not keyboard:
            return None
        number = chosen(text, keyboard["labels"])
        if number is None or number > len(keyboard["tokens"]):
            return None
        return str(keyboard["tokens"][number - 1])

    async def _on_reaction(self, room_id: str, event_id: str, sender: str,
                           body: dict[str, Any]) -> None:
        """A keycap on a numbered keyboard presses that option; a `start` option (join,
        leave) counts as pressed in the presser's private room, as the service expects."""
        rel_type, target = relation(body)
        key = (body.get("m.relates_to") or {}).get("key")
        if rel_type != "m.annotation" or not target or not isinstance(key, str):
            return
        number = keycap_number(key)
        if number is None:
            return
        keyboard = await self.store.load("kb", target) or await self._kept_before_posting(
            "kb", room_id, target)
        if not keyboard or keyboard.get("room") != room_id or \
                not 1 <= number <= len(keyboard["tokens"]):
            return
        start = bool(keyboard["start"][number - 1])
        if start:  # "open my private chat" and the like: a private room may be offered again
            self.rooms.reinvited.discard(sender)
        private = bool(keyboard.get("private")) or start
        await self._press(room_id, event_id, sender, str(keyboard["tokens"][number - 1]),
                          private=private)

    async def _on_poll_response(self, room_id: str, event_id: str, sender: str,
                                body: dict[str, Any]) -> None:
        """An answer to one of the bot's polls: its answer id maps back to the ballot's
        button, which the service judges (an ended poll's answer is told, in private, that
        its vote is over). Answers to polls the bot does not know in this room, and unknown
        answer ids, are no votes and are dropped."""
        _, poll_id = relation(body)
        poll = (await self.store.load("poll", poll_id) or await self._kept_before_posting(
            "poll", room_id, poll_id)) if poll_id else None
        chosen = polls.selections(body)
        if not poll or poll.get("room") != room_id or not chosen:
            return
        token = poll["answers"].get(chosen[0])
        if token is None:
            return
        await self._press(room_id, event_id, sender, str(token), private=False)

    async def _kept_before_posting(self, kind: str, room_id: str, event_id: str) -> Any:
        """What an event of the bot means (a keyboard, a poll) when a kill came between
        posting it and keeping that under its event id: kept before the post under its
        transaction id, which the homeserver shows the sending device in the event. Known
        by its event id from then on."""
        response = await self.client.room_get_event(room_id, event_id)
        source = getattr(getattr(response, "event", None), "source", None)
        if not isinstance(source, dict) or source.get("sender") != self.user_id:
            return None
        txn = (source.get("unsigned") or {}).get("transaction_id")
        value = await self.store.load(kind, pending(txn)) if isinstance(txn, str) else None
        if value is not None:
            await self.store.save(value, kind, event_id)
        return value

    async def _press(self, room_id: str, event_id: str, sender: str, token: str,
                     private: bool) -> None:
        notice = await self._hand(room_id, event_id, sender, private, button=token)
        if not notice or not notice.text or not self.settings.notices:
            return  # (an empty notice: the keyboard itself says what was chosen)
        in_private = room_id in self.directory.private
        if not in_private and notice.taken:
            return  # a poll shows the answer itself; a refusal goes to the private room
        target = room_id if in_private else self.directory.newest(sender)
        if target is None:
            return
        try:
            await self.sender.send_event(target, "m.room.message",
                                            content.message(notice.text))
        except (Failed, *NETWORK_ERRORS, *CRYPTO_ERRORS) as err:
            log.info("matrix: notice for %s not sent: %s", sender, err)

    async def _hand(self, room_id: str, event_id: str, sender: str, private: bool,
                    **fields: Any) -> Notice | None:
        """Hand the service what a person did, as an `Incoming` (see telling.py)."""
        return await self.teller.give(self.teller.incoming(room_id, event_id, sender, private,
                                                           **fields))
