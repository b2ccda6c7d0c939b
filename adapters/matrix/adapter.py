"""The Matrix adapter: reads the bot's rooms through matrix-nio's sync and hands what people
write, react and answer to the runtime; sends, edits, opens private rooms and mutes for the
outbox.

One event loop: the sync runs as a task started by `start` and cancelled by `stop` (never
`sync_forever`), beside Telegram and the scheduler. The sync token lives in the game
database and moves on only after a sync's events were handed to the service, so a crash or
a restart neither skips nor (the service dedupes on event ids anyway) repeats a command; a
`limited` timeline is filled from /messages so no vote falls into the gap. nio never sleeps
on a 429 (`max_limit_exceeded=0`): the outbox retries after `retry_after_ms`. Encrypted rooms
are read and written through nio's end-to-end support and the key store in `store_path`
(see crypto.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from nio import (
    AsyncClient,
    AsyncClientConfig,
    ErrorResponse,
    LoginResponse,
    MessageDirection,
    SyncResponse,
    WhoamiResponse,
)

from core.service.adapter_store import AdapterStore
from core.service.ports import (
    ChatEvent,
    ChatMoved,
    Incoming,
    LoginRefused,
    Notice,
    Outgoing,
    RateLimits,
    Silence,
    Situation,
    TeamRoom,
    TransientError,
)
from core.service.runtime import Handler

from . import content, names, polls, power, store
from .ballots import Ballots, keep_keyboard
from .crypto import CRYPTO_ERRORS, Crypto, close_store, open_store
from .errors import NETWORK_ERRORS, Failed, is_rate_limited, network, translate
from .incoming import (
    PLATFORM,
    as_command,
    choice_by_label,
    choice_number,
    is_edit,
    keycap_number,
    mention_names,
    message_body,
    relation,
)
from .invites import on_invite
from .rooms import PrivateRooms
from .standing import Standings
from .teams import TeamRooms

log = logging.getLogger(__name__)
# what a homeserver answers to credentials that will never work
REFUSED = ("M_FORBIDDEN", "M_UNKNOWN_TOKEN", "M_USER_DEACTIVATED", "M_INVALID_USERNAME")

# Synapse's default `rc_message`: 0.2 messages a second per account, edits included (exempt
# the bot with the admin API's override_ratelimit and raise this in the settings).
LIMITS = RateLimits(overall=0.2)
MAX_BACKFILL_PAGES = 20
MAX_EVENT_ATTEMPTS = 3  # an event the service keeps failing on is skipped after that
SEEN_MEMORY = 20_000  # event ids remembered in memory (the service dedupes on all of them)


@dataclass(frozen=True)
class MatrixSettings:
    homeserver: str  # https://matrix.example.org
    user_id: str  # @nightfall:example.org
    password: str | None = None
    access_token: str | None = None
    device_id: str | None = None  # else the one of the first password login, remembered
    device_name: str = "Nightfall"
    store_path: str | None = None  # nio's key store: keep it as long as the device id
    encryption: bool = True  # read and write encrypted rooms (needs the store_path)
    encrypt_private: bool = False  # the host wants private rooms encrypted (see rooms.py)
    allow: tuple[str, ...] = ()  # who may invite the bot: "@user:server" or ":server"; none
    key_wait: float = 60.0  # seconds an undecryptable event waits for its key, then is told
    invite_wait: float = 600.0  # seconds until a player is reminded of his private room
    sync_timeout: float = 30.0  # seconds a long-poll sync waits for news
    timeline_limit: int = 50  # events per room per sync; more is fetched from /messages
    notices: bool = True  # answer a private choice ("noted", or why not) in the room
    # `@room` the vote's opening and the results, where the room's power levels let the bot
    # (`notifications.room`, 50 by default): else they notify as plain messages do
    room_mentions: bool = True
    limits: RateLimits = field(default=LIMITS)


class MatrixAdapter:
    platform = PLATFORM
    # Element takes `/join` as its own command and asks about every other `/word`: the
    # bot's texts say `!vote` (a `/vote` that a client lets through works as well)
    command_prefix = "!"

    def __init__(self, settings: MatrixSettings) -> None:
        if not (settings.password or settings.access_token):
            raise ValueError("Matrix: a password or an access token is needed")
        self.settings = settings
        self.limits = settings.limits
        self.user_id = settings.user_id
        self.client: AsyncClient | None = None
        self.display_name: str | None = None
        self.connected = False
        self.backfilled = 0  # events fetched from /messages for gaps (limited syncs)
        self._handle: Handler | None = None
        self._task: asyncio.Task[None] | None = None
        self._since: str | None = None
        self._full_state = True
        self._busy = False
        self._stopping = False
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._power: dict[str, dict[str, Any]] = {}
        self._creators: dict[str, set[str]] = {}  # rooms (v12+) whose creators outrank all
        self._members: dict[str, dict[str, tuple[str, str | None]]] = {}
        self._encrypted: set[str] = set()  # rooms with m.room.encryption
        self.rooms = PrivateRooms(self)
        self.standing = Standings(self)
        self.teams = TeamRooms(self)
        self._failures: dict[str, int] = {}  # event id → failed attempts to hand it over
        self._txn = ""  # this database's prefix for transaction ids (outbox ids restart)
        self.crypto: Crypto | None = None  # end-to-end encryption, when on
        self.ballots = Ballots(self._send_event)

    # ------------------------------------------------------------------ lifecycle
    async def start(self, handle: Handler, kept: AdapterStore) -> None:
        """Log in, read where the last run stopped, and sync once before returning (pending
        invites and missed commands are handled by then); then keep syncing in a task."""
        self._handle = handle
        store.use(kept)
        self._stopping = False
        encrypted = bool(self.settings.encryption and self.settings.store_path)
        if encrypted:
            open_store(str(self.settings.store_path))
        config = AsyncClientConfig(max_limit_exceeded=0, max_timeouts=0,
                                   store_sync_tokens=False, encryption_enabled=encrypted,
                                   request_timeout=self.settings.sync_timeout + 30)
        self.client = AsyncClient(self.settings.homeserver, self.user_id,
                                  device_id=self.settings.device_id or "",
                                  store_path=self.settings.store_path or "", config=config)
        try:
            await self._login()
            self.crypto = Crypto(self.client, self.settings.key_wait) \
                if self.client.olm else None
            if self.crypto is not None:
                await self.crypto.upload_keys()
            self._since = await store.load("sync", self.user_id)
            self._full_state = True
            await self.rooms.load()
            await self.teams.load()
            self._txn = await store.load("txn", self.user_id) or secrets.token_hex(4)
            await store.save(self._txn, "txn", self.user_id)
            profile = await self.client.get_displayname(self.user_id)
            self.display_name = getattr(profile, "displayname", None)
            await self._sync_once(timeout=0)
        except BaseException:
            await self._close()
            raise
        self._task = asyncio.create_task(self._sync_loop(), name="matrix-sync")
        self.connected = True
        log.info("matrix: connected as %s", self.user_id)

    async def stop(self) -> None:
        """Stop syncing: a long poll is cancelled, a sync being handed over finishes first
        (and stores its token), then the connection closes."""
        self._stopping = True
        self.connected = False
        task, self._task = self._task, None
        if task is not None:
            if not self._busy:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close()

    async def _close(self) -> None:
        if self.client is not None:
            await self.client.close()
            close_store(self.client)

    async def _login(self) -> None:
        assert self.client is not None
        settings = self.settings
        if settings.access_token:
            self.client.access_token = settings.access_token
            who = await self.client.whoami()
            if not isinstance(who, WhoamiResponse):
                if getattr(who, "status_code", None) in REFUSED:
                    raise LoginRefused(f"matrix: the access token was refused: {who}")
                raise RuntimeError(f"matrix: the access token was refused: {who}")
            # the token belongs to one device, whatever is configured; its key store opens
            # with the login, so the device must be known first
            device = who.device_id or settings.device_id or ""
            if not device and self.client.config.encryption_enabled:
                raise RuntimeError("matrix: set device_id (the token's device) for encryption")
            self.client.restore_login(self.user_id, device, settings.access_token)
            return
        device = settings.device_id or await store.load("device", self.user_id)
        if device:
            self.client.device_id = device
        response = await self.client.login(settings.password, device_name=settings.device_name)
        if not isinstance(response, LoginResponse):
            if getattr(response, "status_code", None) in REFUSED:
                raise LoginRefused(f"matrix: the login was refused: {response}")
            raise RuntimeError(f"matrix: login failed: {response}")
        await store.save(response.device_id, "device", self.user_id)

    @property
    def idle(self) -> bool:
        """No sync is being handed to the service (for a graceful stop, and tests)."""
        return not self._busy

    # ------------------------------------------------------------------ syncing
    def sync_filter(self) -> dict[str, Any]:
        return {"room": {"timeline": {"limit": self.settings.timeline_limit}},
                "presence": {"not_types": ["*"]}}

    async def _sync_loop(self) -> None:
        pause = 1.0
        while not self._stopping:
            try:
                await self._sync_once(timeout=self.settings.sync_timeout)
                self.connected = True
                pause = 1.0
            except asyncio.CancelledError:
                raise
            except Exception as err:  # a broken sync must not end the bot: try again later
                self.connected = False  # /healthz says so until a sync works again
                if self._stopping:
                    return
                log.warning("matrix: sync failed (%s); again in %.0f s", err, pause)
                await asyncio.sleep(pause)
                pause = min(60.0, pause * 2)

    async def _sync_once(self, timeout: float) -> None:
        assert self.client is not None
        response = await self.client.sync(timeout=int(timeout * 1000), since=self._since,
                                          full_state=self._full_state or None,
                                          sync_filter=self.sync_filter())
        if not isinstance(response, SyncResponse):
            if isinstance(response, ErrorResponse) and is_rate_limited(response):
                await asyncio.sleep((response.retry_after_ms or 1000) / 1000)
                return
            raise RuntimeError(str(response))
        self._busy = True
        try:
            await self._process(response, history=self._since is None)
            if self.crypto is not None:  # events whose room key came with this sync
                ready, given_up = self.crypto.release()
                for room_id, event in ready:
                    await self._on_event(room_id, event)
                for room_id, event in given_up:
                    await self._unreadable(room_id, event)
            await self.standing.apply()
            for user, room_id in await self.rooms.overdue():
                await self.tell_about(user, room_id, "invite_waiting", f"invite-{room_id}")
            self._since = response.next_batch
            self._full_state = False
            await store.save(response.next_batch, "sync", self.user_id)
        finally:
            self._busy = False
        if self.crypto is not None:
            try:
                await self.crypto.after_sync()
            except (*NETWORK_ERRORS, *CRYPTO_ERRORS) as err:  # tried again after the next sync
                log.warning("matrix: key maintenance failed: %s", err)

    async def _process(self, response: SyncResponse, history: bool) -> None:
        """One sync's news: invites first, then each joined room's timeline in order. On the
        bot's very first sync (no stored token) the timelines are history and only read for
        state."""
        for room_id, info in response.rooms.join.items():  # an upgrade's invite may come
            for event in (*info.state, *info.timeline.events):  # with its tombstone
                source = raw(event)
                if source.get("type") == "m.room.tombstone":
                    self.standing.note(room_id, source)
        for room_id, invite in response.rooms.invite.items():
            await self._on_invite(room_id, [raw(e) for e in invite.invite_state])
        for room_id, info in response.rooms.join.items():
            for event in info.state:
                self._note_state(room_id, raw(event))
            events = [raw(e) for e in info.timeline.events]
            if history:
                for event in events:
                    self._note_state(room_id, event)
                    self._remember(event.get("event_id"))
                continue
            joined = [i for i, e in enumerate(events) if self._own_join(e)]
            if joined:  # newly joined: what came before is history
                for event in events[:joined[-1] + 1]:
                    self._note_state(room_id, event)
                    self._remember(event.get("event_id"))
                events = events[joined[-1] + 1:]
            elif info.timeline.limited and info.timeline.prev_batch and self._since:
                events = await self._backfill(room_id, info.timeline.prev_batch,
                                              self._since) + events
            for event in events:
                await self._on_event(room_id, event)
        for room_id in response.rooms.leave:
            if self.is_group(room_id) and self.membership(room_id, self.user_id) == "join":
                await self.standing.left(room_id)
            self._forget_room(room_id)

    async def _backfill(self, room_id: str, prev_batch: str, since: str) -> list[dict[str, Any]]:
        """The events between the last sync and a limited timeline, oldest first (stopping
        at the bot's own join: what came before is history)."""
        assert self.client is not None
        found: list[dict[str, Any]] = []
        start = prev_batch
        for _ in range(MAX_BACKFILL_PAGES):
            response = await self.client.room_messages(room_id, start=start, end=since,
                                                       direction=MessageDirection.back,
                                                       limit=100)
            chunk = getattr(response, "chunk", None)
            if chunk is None:
                log.warning("matrix: backfill of %s failed: %s", room_id, response)
                break
            stop = False
            for event in chunk:
                source = getattr(event, "source", None)
                if not isinstance(source, dict):
                    continue
                if self._own_join(source):
                    stop = True
                    break
                found.append(source)
            end = getattr(response, "end", None)
            if stop or not chunk or not end or end == start:
                break
            start = end
        self.backfilled += len(found)
        log.info("matrix: %s events fetched for a gap in %s", len(found), room_id)
        return list(reversed(found))

    def _own_join(self, event: dict[str, Any]) -> bool:
        if event.get("type") != "m.room.member" or event.get("state_key") != self.user_id:
            return False
        before = (event.get("unsigned") or {}).get("prev_content") or {}
        return (event.get("content") or {}).get("membership") == "join" and \
            before.get("membership") != "join"

    def _remember(self, event_id: Any) -> None:
        if isinstance(event_id, str):
            self._seen[event_id] = None
            while len(self._seen) > SEEN_MEMORY:
                self._seen.popitem(last=False)

    def has_seen(self, event_id: str) -> bool:
        """Whether this event was read (and handed over, if it was for the service)."""
        return event_id in self._seen

    # ------------------------------------------------------------------ room state
    def _note_state(self, room_id: str, event: dict[str, Any]) -> None:
        """Power levels and members as the bot needs them (host rights, names, whether a
        private room's reader is still there), from state and timeline events."""
        kind, state_key = event.get("type"), event.get("state_key")
        body = event.get("content") or {}
        if state_key is not None:
            self.standing.note(room_id, event)
        if kind == "m.room.encryption" and state_key == "":
            self._encrypted.add(room_id)
        elif kind == "m.room.power_levels" and state_key == "":
            self._power[room_id] = body
        elif kind == "m.room.create" and state_key == "":
            self._creators[room_id] = power.creators(event)
        elif kind == "m.room.member" and isinstance(state_key, str):
            name = body.get("displayname")
            self._members.setdefault(room_id, {})[state_key] = (
                str(body.get("membership", "leave")), name if isinstance(name, str) else None)
            if state_key in self.rooms.by_user and body.get("membership") == "join":
                self.rooms.reinvited.discard(state_key)

    def _forget_room(self, room_id: str) -> None:
        self._power.pop(room_id, None)
        self._creators.pop(room_id, None)
        self._members.pop(room_id, None)
        self._encrypted.discard(room_id)
        self.rooms.forget(room_id)

    def membership(self, room_id: str, user: str) -> str | None:
        member = self._members.get(room_id, {}).get(user)
        return None if member is None else member[0]

    def members_of(self, room_id: str) -> list[str]:
        return list(self._members.get(room_id, {}))

    def forget_members(self, room_id: str) -> None:
        self._members.pop(room_id, None)

    def note_membership(self, room_id: str, user: str, membership: str) -> None:
        self._members.setdefault(room_id, {})[user] = (membership, None)

    def note_levels(self, room_id: str, levels: dict[str, Any]) -> None:
        self._power[room_id] = levels

    @property
    def power_levels(self) -> dict[str, dict[str, Any]]:
        return self._power

    def is_encrypted(self, room_id: str) -> bool:
        assert self.client is not None
        room = self.client.rooms.get(room_id)
        return room_id in self._encrypted or bool(room is not None and room.encrypted)

    def is_group(self, room_id: str) -> bool:
        """A room games are played in: not the bot's private or team rooms."""
        return room_id not in self.rooms.rooms and room_id not in self.teams.by_room

    def name(self, room_id: str, user: str) -> str:
        return names.display_name(self._members, room_id, user,
                                  set(self.rooms.rooms) | set(self.teams.by_room))

    async def levels(self, room_id: str) -> dict[str, Any]:
        """The room's power levels (and creators), read from the server if no sync has
        shown them yet."""
        if room_id not in self._power or room_id not in self._creators:
            assert self.client is not None
            response = await self.client.room_get_state(room_id)
            for event in getattr(response, "events", None) or []:
                if isinstance(event, dict):
                    self._note_state(room_id, event)
        return self._power.get(room_id) or {}

    async def _is_admin(self, room_id: str, user: str) -> bool:
        """Host rights: the sender may kick in this room (power level 50 by default), or
        created it (room version 12 gives creators unlimited power)."""
        levels = await self.levels(room_id)
        return self.power_of(room_id, user) >= power.as_int(levels.get("kick"), 50)

    def power_of(self, room_id: str, user: str) -> int:
        if user in self._creators.get(room_id, set()):
            return power.CREATOR_POWER
        return power.level_of(self._power.get(room_id) or {}, user)

    # ------------------------------------------------------------------ invites
    async def _on_invite(self, room_id: str, state: list[dict[str, Any]]) -> None:
        await on_invite(self, room_id, state)

    def shares_a_room(self, user: str) -> bool:
        return any(members.get(user, ("",))[0] == "join" and self.is_group(room)
                   for room, members in self._members.items())

    # ------------------------------------------------------------------ receiving
    async def _on_event(self, room_id: str, event: dict[str, Any]) -> None:
        event_id = event.get("event_id")
        if not isinstance(event_id, str) or event_id in self._seen:
            return
        if self.crypto is not None and event.get("type") == "m.room.encrypted" and \
                event.get("sender") != self.user_id:
            self.crypto.hold(room_id, event)  # not read yet: handled once its key comes
            return
        self._note_state(room_id, event)
        try:
            if event.get("sender") != self.user_id and "state_key" not in event:
                await self._dispatch(room_id, event_id, event)
        except Exception:
            failures = self._failures[event_id] = self._failures.get(event_id, 0) + 1
            if failures < MAX_EVENT_ATTEMPTS:
                raise  # the sync token stays: the event is read (and handed) again
            log.exception("matrix: event %s in %s failed %s times; skipped", event_id,
                          room_id, failures)
        self._failures.pop(event_id, None)
        self._remember(event_id)

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
            await self._unreadable(room_id, event)

    async def _unreadable(self, room_id: str, event: dict[str, Any]) -> None:
        """An event the bot could not decrypt: its sender is told (once per Megolm session,
        and his game's group once), rather than his commands vanishing."""
        sender = str(event.get("sender", ""))
        session = (event.get("content") or {}).get("session_id")
        await self.tell_about(sender, room_id, "unreadable", f"unreadable-{sender}-{session}",
                              group=self.is_group(room_id))

    async def tell_about(self, user: str, room_id: str, situation: Situation,
                         update_id: str, group: bool = False) -> None:
        """Hand the service news about a person (see `ports.Situation`), seen in a game
        room (`group`) or elsewhere."""
        await self._give(Incoming(platform=PLATFORM, update_id=update_id, user=user,
                                  user_name=self.name(room_id, user), situation=situation,
                                  chat=room_id if group else None))

    def _incoming(self, room_id: str, event_id: str, sender: str, private: bool,
                  **fields: Any) -> Incoming:
        return Incoming(platform=PLATFORM, update_id=event_id, user=sender,
                        user_name=self.name(room_id, sender),
                        chat=None if private else room_id, **fields)

    async def _on_message(self, room_id: str, event_id: str, sender: str,
                          body: dict[str, Any]) -> None:
        mentions = mention_names(self.user_id, self.display_name)
        if is_edit(body):  # edits never count, as the rules say; a command's author is told
            new = body.get("m.new_content")
            text = message_body(new) if isinstance(new, dict) else None
            if text and (as_command(text, mentions) or text.startswith("/")
                         or room_id in self.rooms.rooms):
                await self.tell_about(sender, room_id, "edited", event_id)
            return
        text = message_body(body)
        if not text:
            return
        command = as_command(text, mentions) or (text if text.startswith("/") else None)
        team = self.teams.by_room.get(room_id)
        if team is not None:  # the members read it here; a command is answered in private
            await self._give(self._incoming(room_id, event_id, sender, True,
                                            text=command or text,
                                            team=None if command else team))
            return
        if room_id in self.rooms.rooms:
            token = await self._keyboard_choice(room_id, text)
            if token is not None:
                await self._press(room_id, event_id, sender, token, private=True)
                return
            await self._give(self._incoming(room_id, event_id, sender, True,
                                            text=command or text))
            return
        if command is not None:
            admin = await self._is_admin(room_id, sender)
            await self._give(self._incoming(room_id, event_id, sender, False, text=command,
                                            admin=admin))
        else:
            await self._give(self._incoming(room_id, event_id, sender, False, text=text))

    async def _keyboard_choice(self, room_id: str, text: str) -> str | None:
        """A number or an option's label written in a private room: the matching button of
        the room's newest keyboard (the service answers if its window is over)."""
        latest = await store.load("kbroom", room_id)
        keyboard = await store.load("kb", latest) if latest else None
        if not keyboard:
            return None
        number = choice_number(text) or choice_by_label(text, keyboard["labels"])
        if number is None or not 1 <= number <= len(keyboard["tokens"]):
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
        keyboard = await store.load("kb", target)
        if number is None or not keyboard or keyboard.get("room") != room_id or \
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
        poll = await store.load("poll", poll_id) if poll_id else None
        chosen = polls.selections(body)
        if not poll or poll.get("room") != room_id or not chosen:
            return
        token = poll["answers"].get(chosen[0])
        if token is None:
            return
        await self._press(room_id, event_id, sender, str(token), private=False)

    async def _press(self, room_id: str, event_id: str, sender: str, token: str,
                     private: bool) -> None:
        notice = await self._give(self._incoming(room_id, event_id, sender, private,
                                                 button=token))
        if not notice or not self.settings.notices:
            return
        in_private = room_id in self.rooms.rooms
        if not in_private and notice.taken:
            return  # a poll shows the answer itself; a refusal goes to the private room
        target = room_id if in_private else self.rooms.newest(sender)
        if target is None:
            return
        try:
            await self._send_event(target, "m.room.message", content.message(notice.text))
        except (Failed, *NETWORK_ERRORS, *CRYPTO_ERRORS) as err:
            log.info("matrix: notice for %s not sent: %s", sender, err)

    async def _give(self, incoming: Incoming) -> Notice | None:
        assert self._handle is not None
        return await self._handle(incoming)

    async def tell(self, event: ChatEvent) -> None:
        """News about a game room itself (see standing.py)."""
        assert self._handle is not None
        await self._handle(event)

    # ------------------------------------------------------------------ sending
    async def can_resend(self, chat_ref: str, replace: str | None) -> bool:
        """Every send carries its outbox row's transaction id: the homeserver drops a repeat."""
        return True

    async def send(self, message: Outgoing) -> None:
        moved = None if message.private else self.standing.moved_to(message.chat_ref)
        if moved is not None:  # an upgraded room: the message goes to its replacement
            raise ChatMoved(f"matrix: {message.chat_ref} was upgraded", moved)
        try:
            room_id = await self.rooms.room_for(message.chat_ref) if message.private \
                else message.chat_ref
            await self._deliver(room_id, message)
        except Failed as failed:
            gone = self.membership(message.chat_ref, self.user_id) != "join"
            raise translate(failed.response, message.private,
                            lost="removed" if gone else "silenced") from failed
        except NETWORK_ERRORS as err:
            raise network(err) from err
        except CRYPTO_ERRORS as err:  # e.g. the members' keys could not be fetched: later
            raise TransientError(f"matrix: not encrypted: {err}") from err

    async def _deliver(self, room_id: str, message: Outgoing) -> None:
        """The first version of a message is posted; later versions (same `replace` key)
        edit it in place. A group ballot is polls and a text message (ballots.py), which its
        later versions (the live tally, then the closing count) edit."""
        buttons = message.buttons
        txn = f"nightfall-{self._txn}-{message.outbox_id}"  # a retry is sent once
        as_poll = bool(buttons) and not message.private and not any(b.start for b in buttons)
        ref = await store.load("ref", room_id, message.replace) if message.replace else None
        if ref is not None:
            if ref["kind"] == "poll":
                updated = await self.ballots.update(room_id, ref, message, txn)
                if updated != ref:
                    await store.save(updated, "ref", room_id, str(message.replace))
                return
            text = content.with_options(message.text, [b.label for b in buttons])
            msgtype = str(ref.get("msgtype", content.NOTICE))
            await self._send_event(room_id, "m.room.message",
                                   content.edit(ref["event_id"], text, msgtype), txn)
            if buttons:
                await self._keep_keyboard(ref["event_id"], room_id, message)
            return
        loud = await self._loudness(room_id, message)
        if as_poll:
            ref = await self.ballots.post(room_id, message, txn, loud)
        else:
            text = content.with_options(message.text, [b.label for b in buttons])
            event_id = await self._send_event(room_id, "m.room.message",
                                              content.message(text, *loud), txn)
            if buttons:
                await self._keep_keyboard(event_id, room_id, message)
            ref = {"kind": "text", "event_id": event_id, "msgtype": loud[0]}
        if message.replace:
            await store.save(ref, "ref", room_id, message.replace)

    async def _loudness(self, room_id: str, message: Outgoing) -> content.Loudness:
        """How a message is to notify (content.loudness): an urgent one in the group pings
        the room if the settings allow it and the room's power levels let the bot."""
        if not message.urgent or message.private:
            return content.loudness(message.urgent, message.chat_ref, False)
        ping = self.settings.room_mentions and content.may_ping_room(
            await self.levels(room_id), self.power_of(room_id, self.user_id))
        return content.loudness(True, None, ping)

    async def _keep_keyboard(self, event_id: str, room_id: str, message: Outgoing) -> None:
        """Remember what each number of a numbered keyboard presses (for replies and
        reactions); a private room's newest keyboard answers plain numbers."""
        await keep_keyboard(event_id, room_id, message.private, message.buttons)
        if message.private:
            await store.save(event_id, "kbroom", room_id)

    async def _send_event(self, room_id: str, kind: str, body: dict[str, Any],
                          txn: str | None = None) -> str:
        assert self.client is not None
        if self.crypto is not None:
            await self.crypto.before_send(room_id)
        # a bot cannot verify anyone: every member's device gets the room key (nio has no
        # cross-signing, so clients see the bot's device as unverified as well)
        response = await self.client.room_send(room_id, kind, body, tx_id=txn,
                                               ignore_unverified_devices=True)
        if isinstance(response, ErrorResponse):
            raise Failed(response)
        return str(response.event_id)

    # ------------------------------------------------------------------ team rooms
    async def team(self, order: TeamRoom) -> None:
        """A team chat as a room of its own (see teams.py); when the game is over the bot
        says goodbye there and leaves."""
        try:
            room_id = self.teams.by_key.get(order.key)
            if not order.closed:
                await self.teams.update(order)
            elif room_id is not None:
                txn = f"nightfall-{self._txn}-{order.outbox_id}"  # a retry is posted once
                await self._send_event(room_id, "m.room.message", content.message(order.about),
                                       txn)
                await self.teams.close(order.key, room_id)
        except Failed as failed:
            raise translate(failed.response, private=False) from failed
        except NETWORK_ERRORS as err:
            raise network(err) from err

    # ------------------------------------------------------------------ muting
    async def silence(self, order: Silence) -> None:
        """Mute or unmute (see power.py); a person who is no Matrix account is skipped."""
        if not order.user_ref.startswith("@"):
            return
        try:
            await power.silence(self, order)
        except Failed as failed:
            raise translate(failed.response, private=False) from failed
        except NETWORK_ERRORS as err:
            raise network(err) from err


def matrix_adapter_from(section: Any) -> MatrixAdapter:
    """The adapter for the `[matrix]` section of the configuration (core.config's
    MatrixSettingsSection): secrets unwrapped, rate overrides applied to Synapse's default."""
    rates = {k: v for k, v in section.rates.model_dump().items() if v is not None}

    def secret(value: Any) -> str | None:
        return None if value is None else str(value.get_secret_value())

    return MatrixAdapter(MatrixSettings(
        homeserver=section.homeserver, user_id=section.user_id,
        password=secret(section.password), access_token=secret(section.access_token),
        device_id=section.device_id or None, store_path=str(section.store_path),
        encrypt_private=section.encrypt_private, allow=tuple(section.allow),
        room_mentions=section.room_mentions,
        limits=replace(LIMITS, **rates)))


def raw(event: Any) -> dict[str, Any]:
    """An event's JSON. nio pops `content` out of the invite state's member events (it
    keeps it as an attribute): put it back."""
    source = dict(getattr(event, "source", None) or {})
    if "content" not in source and isinstance(getattr(event, "content", None), dict):
        source["content"] = event.content
    return source
