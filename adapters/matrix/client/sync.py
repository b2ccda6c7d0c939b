"""Reading the bot's rooms through matrix-nio's sync: one long poll after the other, in a
task the adapter starts and cancels (never `sync_forever`).

The sync token lives in the game database and moves on only after a sync's events were
handed to the service, so a crash or a restart neither skips nor (the service dedupes on
event ids anyway) repeats a command; a `limited` timeline is filled from /messages so no vote
falls into the gap. On the bot's very first sync (no stored token) the timelines are history
and only read for state; so is what came before the bot joined a room.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from nio import AsyncClient, ErrorResponse, MessageDirection, SyncResponse

from core.service import CatchUp, database_watch

from ..protocol.directory import Directory
from ..protocol.errors import NETWORK_ERRORS, is_rate_limited
from ..protocol.incoming import PLATFORM
from ..protocol.room_state import RoomState, tombstone
from ..protocol.seen import Seen
from ..settings import MatrixSettings
from ..store import MatrixStore
from .crypto import CRYPTO_ERRORS, Crypto
from .invites import Invites
from .receive import Receiver
from .rooms import PrivateRooms
from .routes import Routes
from .standing import Standings
from .telling import Teller

log = logging.getLogger(__name__)

MAX_BACKFILL_PAGES = 20


@dataclass
class Link:
    """The bot's link to the homeserver, as the adapter and its sync loop both see it:
    whether the last sync answered (for /healthz), and whether the adapter is stopping."""

    connected: bool = False
    stopping: bool = False


def raw(event: Any) -> dict[str, Any]:
    """An event's JSON. nio pops `content` out of the invite state's member events (it
    keeps it as an attribute): put it back."""
    source = dict(getattr(event, "source", None) or {})
    if "content" not in source and isinstance(getattr(event, "content", None), dict):
        source["content"] = event.content
    return source


@dataclass(frozen=True)
class Readers:
    """The parts a sync hands its news to."""

    routes: Routes
    receiver: Receiver
    invites: Invites
    standing: Standings
    rooms: PrivateRooms
    teller: Teller


class Syncer:
    def __init__(self, client: AsyncClient, state: RoomState, directory: Directory,
                 readers: Readers, crypto: Crypto | None, seen: Seen, store: MatrixStore,
                 settings: MatrixSettings, link: Link, catch_up: CatchUp) -> None:
        self.client = client
        self.state = state
        self.directory = directory
        self.readers = readers
        self.crypto = crypto
        self.seen = seen
        self.store = store
        self.settings = settings
        self.user_id = settings.user_id
        self.link = link
        self.catch_up = catch_up
        self.since: str | None = None
        self.full_state = True
        self.busy = False  # a sync's events are being handed to the service
        self.backfilled = 0  # events fetched from /messages for gaps (limited syncs)

    async def load(self) -> None:
        self.since = await self.store.load("sync", self.user_id)
        self.full_state = True

    def sync_filter(self) -> dict[str, Any]:
        return {"room": {"timeline": {"limit": self.settings.timeline_limit}},
                "presence": {"not_types": ["*"]}}

    async def loop(self) -> None:
        link, catch_up = self.link, self.catch_up
        pause = 1.0
        while not link.stopping:
            behind = catch_up.is_behind(PLATFORM)
            try:  # after a start or an outage: no long poll, and say when it is applied
                applied = await self.once(timeout=0 if behind else self.settings.sync_timeout)
                link.connected = True  # it answered (a rate limit is an answer too)
                pause = 1.0
                if applied and behind:
                    catch_up.caught_up(PLATFORM)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # a broken sync must not end the bot: try again later
                if link.stopping:
                    return
                watch = database_watch()
                if watch.failed(err):  # the database is away: the watch logs it, once
                    while not watch.available and not link.stopping:
                        await asyncio.sleep(0.1)
                    continue
                link.connected = False  # /healthz says so until a sync works again
                log.warning("matrix: sync failed (%s); again in %.0f s", err, pause)
                await asyncio.sleep(pause)
                pause = min(60.0, pause * 2)

    async def once(self, timeout: float) -> bool:
        """One sync, handed to the service; False if it was rate limited (nothing read: the
        updates queued meanwhile are still to come, so the receiver has not caught up)."""
        crypto, readers = self.crypto, self.readers
        response = await self.client.sync(timeout=int(timeout * 1000), since=self.since,
                                     full_state=self.full_state or None,
                                     sync_filter=self.sync_filter())
        if not isinstance(response, SyncResponse):
            if isinstance(response, ErrorResponse) and is_rate_limited(response):
                await asyncio.sleep((response.retry_after_ms or 1000) / 1000)
                return False
            raise RuntimeError(str(response))
        self.busy = True
        try:
            await self._process(response, history=self.since is None)
            if crypto is not None:  # events whose room key came with this sync
                ready, given_up = crypto.release()
                for room_id, event in ready:
                    await readers.receiver.on_event(room_id, event)
                for room_id, event in given_up:
                    await readers.teller.unreadable(room_id, event)
            await readers.standing.apply()
            for user, room_id in await readers.rooms.take_opened():  # he reads it now
                await readers.teller.tell_about(user, room_id, "opened",
                                                f"opened-{room_id}-{response.next_batch}")
            for user, room_id in await readers.rooms.overdue():
                await readers.teller.tell_about(user, room_id, "invite_waiting",
                                                f"invite-{room_id}")
            if crypto is not None and crypto.changed:  # before the token
                await self.store.save(crypto.kept(), "held", self.user_id)
                crypto.changed = False
            self.since = response.next_batch
            self.full_state = False
            await self.store.save(response.next_batch, "sync", self.user_id)
        finally:
            self.busy = False
        if crypto is not None:
            try:
                await crypto.after_sync()
            except (*NETWORK_ERRORS, *CRYPTO_ERRORS) as err:  # tried again after the next sync
                log.warning("matrix: key maintenance failed: %s", err)
        return True

    async def _process(self, response: SyncResponse, history: bool) -> None:
        """One sync's news: invites first, then each joined room's timeline in order."""
        readers, routes = self.readers, self.readers.routes
        for room_id, info in response.rooms.join.items():  # an upgrade's invite may come
            for event in (*info.state, *info.timeline.events):  # with its tombstone
                upgrade = tombstone(room_id, raw(event))
                if upgrade is not None:
                    readers.standing.upgraded(upgrade)
        for room_id, invite in response.rooms.invite.items():
            await readers.invites.on_invite(room_id, [raw(e) for e in invite.invite_state])
        for room_id, info in response.rooms.join.items():
            for event in info.state:
                routes.note(room_id, raw(event))
            events = [raw(e) for e in info.timeline.events]
            if history:
                for event in events:
                    routes.note(room_id, event)
                    self.seen.remember(event.get("event_id"))
                continue
            joined = [i for i, e in enumerate(events) if self._own_join(e)]
            if joined:  # newly joined: what came before is history
                for event in events[:joined[-1] + 1]:
                    routes.note(room_id, event)
                    self.seen.remember(event.get("event_id"))
                events = events[joined[-1] + 1:]
            elif info.timeline.limited and info.timeline.prev_batch and self.since:
                events = await self._backfill(room_id, info.timeline.prev_batch,
                                              self.since) + events
            for event in events:
                await readers.receiver.on_event(room_id, event)
        for room_id in response.rooms.leave:
            if self.directory.is_group(room_id) and \
                    self.state.membership(room_id, self.user_id) == "join":
                await readers.standing.left(room_id)
            routes.forget(room_id)

    async def _backfill(self, room_id: str, prev_batch: str, since: str) -> list[dict[str, Any]]:
        """The events between the last sync and a limited timeline, oldest first (stopping
        at the bot's own join: what came before is history)."""
        client = self.client
        found: list[dict[str, Any]] = []
        start = prev_batch
        for _ in range(MAX_BACKFILL_PAGES):
            response = await client.room_messages(room_id, start=start, end=since,
                                                  direction=MessageDirection.back, limit=100)
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
        user_id = self.user_id
        if event.get("type") != "m.room.member" or event.get("state_key") != user_id:
            return False
        before = (event.get("unsigned") or {}).get("prev_content") or {}
        return (event.get("content") or {}).get("membership") == "join" and \
            before.get("membership") != "join"
