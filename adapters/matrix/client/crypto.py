"""End-to-end encryption for the Matrix adapter: Megolm through matrix-nio and vodozemac.

Private rooms in common clients are encrypted by default, so a player who opens a direct chat
with the bot gets an encrypted room, and a host may well invite it into an encrypted group.
nio decrypts a sync's timeline itself (the adapter then reads decrypted events as plain ones)
and encrypts `room_send` into rooms with `m.room.encryption`; what nio leaves to the caller of
`sync` (the adapter never runs `sync_forever`) is here: the key chores after each sync, rooms
nio has not synced yet, and events whose room key comes late. Rooms the bot creates itself
stay unencrypted.

The key store is nio's SQLite file in `store_path`, one per account and device: the device's
identity keys and every room key it was given. It must live as long as the device id: a bot
that loses it can never read again what was encrypted for that device, and the server keeps
the old device's keys, so a new store needs a new device id.

nio has no cross-signing; the bot signs its device itself (cross_signing.py), so clients that
share room keys only with devices their owner signed give it theirs. A client may still
withhold a key (a late one, a device it has not fetched yet): an event that stays
undecryptable is therefore not dropped quietly: its room key is requested
(nio's `request_room_key`, which asks the bot's own other devices, the only ones nio accepts
forwarded keys from), and after `wait` seconds it is given up and its sender named to the
adapter, which tells him, and his group, that the bot cannot read him.

The events waiting for their keys outlive a restart or a kill: the sync token moves on past
them, so the syncer stores them with it (`kept`, `restore`). What waits is bounded per sender
(held.py): one person's unreadable flood holds a few of his events, not the bot's memory.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from nio import (
    AsyncClient,
    EncryptionError,
    ErrorResponse,
    LocalProtocolError,
    MatrixRoom,
    MegolmEvent,
    RoomGetStateEventResponse,
)
from nio.exceptions import OlmTrustError

from ..protocol.errors import Failed
from ..protocol.held import Held, HeldEvents

log = logging.getLogger(__name__)

# what nio raises (instead of returning an error response) when it cannot encrypt a send
CRYPTO_ERRORS = (LocalProtocolError, EncryptionError, OlmTrustError)


def open_store(path: str) -> None:
    """The store directory, readable by the bot alone (it holds the device's private keys)."""
    os.makedirs(path, mode=0o700, exist_ok=True)


def close_store(client: AsyncClient) -> None:
    """nio's close ends only the HTTP session; the store's SQLite connection is closed here
    (a restarted bot opens the same file again)."""
    database = getattr(client.store, "database", None)
    if database is not None:
        database.close()


class Crypto:
    """The encryption chores of one logged-in client (with nio's Olm machine loaded)."""

    def __init__(self, client: AsyncClient, wait: float = 60.0) -> None:
        self.client = client
        self.wait = wait  # how long an undecryptable event waits for its room key
        self.upload_refused: str | None = None
        self._held = HeldEvents()
        self._to_request: list[MegolmEvent] = []
        self.changed = False  # held events came or went since they were last kept

    @property
    def held(self) -> int:
        """Encrypted events still waiting for their room key."""
        return len(self._held)

    async def upload_keys(self) -> None:
        """Publish the device's identity and one-time keys (others encrypt for the bot with
        them). A refusal (a lost store under an old device id) is logged once: unencrypted
        rooms keep working."""
        client = self.client
        if self.upload_refused or not client.should_upload_keys:
            return
        response = await client.keys_upload()
        if isinstance(response, ErrorResponse):
            self.upload_refused = str(response)
            log.error("matrix: the encryption keys were refused (%s); encrypted rooms cannot "
                      "be read. A lost key store needs a new device id.", response)

    async def after_sync(self) -> None:
        """What `sync_forever` would do between syncs: upload keys the server ran short of,
        learn the devices of the people in encrypted rooms, claim one-time keys for broken
        sessions, send the to-device messages nio queued (key shares, key requests)."""
        client = self.client
        await self.upload_keys()
        await self.query_keys()
        if client.should_claim_keys:
            await client.keys_claim(client.get_users_for_key_claiming())
        await self._request_keys()
        await client.send_to_device_messages()

    async def _request_keys(self) -> None:
        """Ask for the room keys of held events, once per Megolm session."""
        requests, self._to_request = self._to_request, []
        for event in requests:
            if event.session_id in self.client.outgoing_key_requests:
                continue
            try:
                response = await self.client.request_room_key(event)
            except LocalProtocolError:  # asked already (nio remembers it in its store)
                continue
            if isinstance(response, ErrorResponse):
                log.info("matrix: room key request for %s failed: %s", event.event_id,
                         response)

    async def query_keys(self) -> None:
        if self.client.should_query_keys:
            response = await self.client.keys_query()
            if isinstance(response, ErrorResponse):
                log.warning("matrix: device keys not fetched: %s", response)

    async def before_send(self, room_id: str) -> None:
        """nio encrypts by its own room list and refuses a room it has not synced yet (the
        bot's private room created a moment ago): such a room is added, encrypted if it
        says so. Devices that appeared since the last sync are fetched, so the room key
        reaches them too."""
        client = self.client
        if room_id not in client.rooms:
            encrypted = room_id in client.encrypted_rooms
            if not encrypted:
                state = await client.room_get_state_event(room_id, "m.room.encryption")
                encrypted = isinstance(state, RoomGetStateEventResponse)
                if isinstance(state, ErrorResponse) and state.status_code != "M_NOT_FOUND":
                    raise Failed(state)  # not in the room, or the server is down
            if room_id not in client.rooms:
                client.rooms[room_id] = MatrixRoom(room_id, str(client.user_id), encrypted)
        if client.rooms[room_id].encrypted:
            await self.query_keys()

    # ------------------------------------------------------------------ late room keys
    def hold(self, room_id: str, event: dict[str, Any], since: float | None = None) -> None:
        """An event nio could not decrypt: its room key may still come (a later to-device
        message), so it waits, for a while."""
        event_id = str(event.get("event_id"))
        if event_id in self._held:
            return
        self._held.add(event_id, Held(room_id, event, time.time() if since is None else since))
        self.changed = True
        megolm = MegolmEvent.from_dict(event)
        if isinstance(megolm, MegolmEvent) and event_id in self._held:
            megolm.room_id = room_id
            self._to_request.append(megolm)

    def kept(self) -> list[list[Any]]:
        """The held events as the store keeps them: [room, event, since]."""
        return [[room_id, event, since] for _, (room_id, event, since) in self._held.items()]

    def restore(self, kept: list[list[Any]]) -> None:
        """The held events of the last run (their key is asked for again)."""
        for room_id, event, since in kept:
            self.hold(str(room_id), dict(event), float(since))
        self.changed = False

    def release(self) -> tuple[list[tuple[str, dict[str, Any]]],
                               list[tuple[str, dict[str, Any]]]]:
        """The held events that can be decrypted now, as (room, decrypted event JSON), oldest
        first; and those given up after waiting too long, as (room, encrypted event JSON)."""
        ready: list[tuple[str, dict[str, Any]]] = []
        given_up: list[tuple[str, dict[str, Any]]] = []
        now = time.time()
        for event_id, (room_id, source, since) in self._held.items():
            decrypted = self._decrypt(room_id, source)
            if decrypted is not None:
                ready.append((room_id, decrypted))
                self._held.remove(event_id)
                self.changed = True
            elif now - since > self.wait:
                log.warning("matrix: no room key for %s from %s in %s; not read", event_id,
                            source.get("sender"), room_id)
                given_up.append((room_id, source))
                self._held.remove(event_id)
                self.changed = True
        return ready, given_up

    def _decrypt(self, room_id: str, source: dict[str, Any]) -> dict[str, Any] | None:
        event = MegolmEvent.from_dict(source)
        if not isinstance(event, MegolmEvent):
            return None
        event.room_id = room_id
        try:
            decrypted = self.client.decrypt_event(event)
        except (EncryptionError, LocalProtocolError):
            return None
        found = getattr(decrypted, "source", None)
        return dict(found) if isinstance(found, dict) else None
