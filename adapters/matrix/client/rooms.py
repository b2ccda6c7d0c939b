"""The bot's private room with each person: where role cards, night prompts and answers go.

A room is created once and the person invited in a second step, because Synapse creates a
room and then invites: an invite that fails (a person's server unreachable, 502; a server
that does not know the room version, 400 M_UNSUPPORTED_ROOM_VERSION) would leave the bot in
an empty room nobody knows of, and each retry would add one. So the new room is remembered
before the invite: a failure that may pass (a 5xx, M_UNKNOWN, a 429, the network) is retried
on the same room; one that cannot (the person does not exist, may not be invited, cannot
join that room version) leaves and forgets the room, and the person counts as unreachable
(the group is told, once). A server that does not know the room's version gets a new room
in version 10 instead.

An invite is only a door: no client joins it for the player, and what the bot writes waits
behind it. A player who has not accepted it after `invite_wait` seconds is reminded in the
game's group, once. A player who left (or rejected) his private room and is invited again
is not written to behind that second invite: what is for him waits in the service (`Invited`)
and is sent when the bot sees him join (the situation `opened`, handed on by the sync), so
that he reads it then, once, without the prompts of windows that closed meanwhile.

The rooms the bot creates stay unencrypted unless the host asks for encryption
(`encrypt_private`). An encrypted direct chat a player opens with the bot is his private
room like any other, where the bot reads and writes encrypted (see invites.py).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from nio import AsyncClient, ErrorResponse, RoomPreset
from nio.api import Api

from core.service import Invited, Unreachable

from ..protocol.directory import Directory
from ..protocol.errors import NETWORK_ERRORS, Failed, http_status, is_rate_limited
from ..protocol.room_state import RoomState
from ..settings import MatrixSettings
from ..store import MatrixStore

log = logging.getLogger(__name__)
# what an invite answers when the invitee's server does not know the room's version: the
# room is made again in this version (stable since 2022, known to every current server)
OLDER_SERVER = ("M_UNSUPPORTED_ROOM_VERSION", "M_INCOMPATIBLE_ROOM_VERSION")
FALLBACK_VERSION = "10"
FINAL = ("M_FORBIDDEN", "M_NOT_FOUND", "M_INVALID_PARAM", "M_BAD_JSON", *OLDER_SERVER)
MEGOLM = {"type": "m.room.encryption", "state_key": "",
          "content": {"algorithm": "m.megolm.v1.aes-sha2"}}


def may_pass(response: ErrorResponse) -> bool:
    """A failure worth retrying: rate limited, a server error, or no answer saying more
    (an error code that says why is final)."""
    if response.status_code in FINAL:
        return False
    status = http_status(response)
    return is_rate_limited(response) or status is None or status >= 500


class OlderServer(Exception):
    """The invitee's server does not know the room's version."""


class PrivateRooms:
    def __init__(self, client: AsyncClient, state: RoomState, directory: Directory,
                 store: MatrixStore, settings: MatrixSettings) -> None:
        self.client = client
        self.state = state
        self.directory = directory
        self.store = store
        self.settings = settings
        self.user_id = settings.user_id
        self.reinvited: set[str] = set()
        self.waiting: dict[str, float] = {}  # room → when its invite went out (unaccepted)
        self.again: set[str] = set()  # rooms whose person was invited again, not joined yet
        self.opened: list[tuple[str, str]] = []  # (user, room) joined since the last sync
        self.recent: list[tuple[str, str]] = []  # ... and those of the sync before

    async def load(self) -> None:
        dms = await self.store.load("dm", self.user_id) or {}
        self.directory.set_private({user: list(rooms) for user, rooms in dms.items()})
        self.waiting = dict(await self.store.load("invites", self.user_id) or {})
        self.again = set(await self.store.load("reinvites", self.user_id) or [])

    def joined(self, room_id: str, user: str) -> None:
        """A person joined a room. One with a private room may be offered it again; one who
        joined the private room he was invited to can be written to now (`take_opened`)."""
        if user not in self.directory.by_user:
            return
        self.reinvited.discard(user)
        if self.directory.private.get(room_id) == user and \
                (room_id in self.again or room_id in self.waiting):
            self.again.discard(room_id)
            self.opened.append((user, room_id))

    async def take_opened(self) -> list[tuple[str, str]]:
        """(user, room) of each private room joined since the last call: what waited for
        him is to be sent (the service hears `opened`). Those of the call before come once
        more: a send refused as `Invited` just before his join was seen may have settled
        only after the service had sent what waited (sending what waits twice sends
        nothing twice)."""
        opened = self.opened + [o for o in self.recent if o not in self.opened]
        self.recent, self.opened = self.opened, []
        if self.recent:
            await self.store.save(sorted(self.again), "reinvites", self.user_id)
        return opened

    def opened_by(self, user: str, room_id: str) -> None:
        """A private room the person opened with the bot himself: he reads it already."""
        self.opened.append((user, room_id))

    async def add(self, user: str, room_id: str) -> None:
        """Remember a private room (in the database and in the bot's m.direct account
        data, which clients read to show it as a direct chat)."""
        self.directory.add_private(user, room_id)
        await self.store.save(self.directory.by_user, "dm", self.user_id)
        try:
            await self._put_direct()
        except (Failed, *NETWORK_ERRORS) as err:
            log.info("matrix: m.direct not updated: %s", err)

    async def room_for(self, user: str) -> str:
        """The person's private room with the bot, created (and the person invited) on
        first need. Someone who left it is invited again, once; who left again, or may not
        be invited, is unreachable until they write to the bot."""
        rooms = [r for r in self.directory.by_user.get(user, []) if self._usable(r)]
        if rooms:
            room_id = rooms[-1]
            membership = self.state.membership(room_id, user) or "invite"
            if membership == "invite" and room_id in self.again:
                raise Invited(f"matrix: {user} has not accepted the new invite yet")
            if membership in ("join", "invite"):
                return room_id
            if membership == "ban" or user in self.reinvited:
                raise Unreachable(f"matrix: {user} left the private room")
            await self._invite(room_id, user, created=False)
            self.state.note_membership(room_id, user, "invite")
            self.reinvited.add(user)
            self.again.add(room_id)
            await self.store.save(sorted(self.again), "reinvites", self.user_id)
            raise Invited(f"matrix: {user} was invited to his private room again")
        room_id = await self.store.load("creating", user)
        if room_id is None:
            room_id = await self._create()
            await self.store.save(room_id, "creating", user)
        try:
            await self._invite(room_id, user, created=True)
        except OlderServer:  # once more, in a room version every server knows
            room_id = await self._create(FALLBACK_VERSION)
            await self.store.save(room_id, "creating", user)
            try:
                await self._invite(room_id, user, created=True)
            except OlderServer as err:
                raise Unreachable(f"matrix: {user} cannot be invited: {err}") from err
        await self.store.drop("creating", user)
        self.state.note_membership(room_id, user, "invite")
        await self.add(user, room_id)
        self.waiting[room_id] = time.time()
        await self.store.save(self.waiting, "invites", self.user_id)
        return room_id

    async def overdue(self) -> list[tuple[str, str]]:
        """(user, room) of each invite still not accepted after `invite_wait` seconds; each
        is given once (the reminder), and accepted ones are dropped."""
        now, found, changed = time.time(), [], False
        for room_id, since in list(self.waiting.items()):
            user = self.directory.private.get(room_id)
            if user is None or self.state.membership(room_id, user) not in (None, "invite"):
                del self.waiting[room_id]
                changed = True
            elif now - since >= self.settings.invite_wait:
                found.append((user, room_id))
                del self.waiting[room_id]
                changed = True
        if changed:
            await self.store.save(self.waiting, "invites", self.user_id)
        return found

    def _usable(self, room_id: str) -> bool:
        """A room the bot can read and write: an encrypted one only with encryption on."""
        return self.client.olm is not None or not self.is_encrypted(room_id)

    def is_encrypted(self, room_id: str) -> bool:
        """Encrypted, as the room's state or nio (which may know it from elsewhere) says."""
        room = self.client.rooms.get(room_id)
        return self.state.is_encrypted(room_id) or bool(room is not None and room.encrypted)

    async def _create(self, version: str | None = None) -> str:
        """A new private room, in the homeserver's default room version or `version`."""
        created = await self.client.room_create(
            is_direct=True, preset=RoomPreset.private_chat, room_version=version,
            initial_state=[MEGOLM] if self.settings.encrypt_private else [])
        if isinstance(created, ErrorResponse):
            raise Failed(created)
        return str(created.room_id)

    async def _invite(self, room_id: str, user: str, created: bool) -> None:
        """Invite as a direct chat (the member event says `is_direct`, as createRoom's
        invite would). A failure that may pass is raised for a retry on this room; one that
        cannot makes the person unreachable, and a room just created for them is left and
        forgotten (no orphan stays behind); a server that does not know the room's version
        raises `OlderServer`, for a new room in an older version."""
        response = await self.client.room_put_state(room_id, "m.room.member",
                                               {"membership": "invite", "is_direct": True},
                                               state_key=user)
        if not isinstance(response, ErrorResponse):
            return
        if may_pass(response):
            raise Failed(response)
        if created:
            await self._abandon(room_id, user)
            if response.status_code in OLDER_SERVER:
                log.info("matrix: %s's server does not know the room version: %s", user,
                         response)
                raise OlderServer(str(response))
        log.warning("matrix: %s cannot be invited to a private room: %s", user, response)
        raise Unreachable(f"matrix: {user} cannot be invited: {response}")

    async def _abandon(self, room_id: str, user: str) -> None:
        client = self.client
        left = await client.room_leave(room_id)
        if isinstance(left, ErrorResponse):
            log.warning("matrix: cannot leave the unused room %s: %s", room_id, left)
        else:
            await client.room_forget(room_id)
        await self.store.drop("creating", user)

    async def _put_direct(self) -> None:
        current = await self._account_data("GET", "m.direct") or {}
        merged = {user: list(rooms) for user, rooms in current.items()
                  if isinstance(rooms, list)}
        for user, rooms in self.directory.by_user.items():
            merged[user] = [r for r in merged.get(user, []) if r not in rooms] + rooms
        await self._account_data("PUT", "m.direct", merged)

    async def _account_data(self, method: str, kind: str,
                            body: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """nio has no setter for global account data: the plain client-server call."""
        client = self.client
        path = Api._build_path(["user", self.user_id, "account_data", kind])
        headers = {"Authorization": f"Bearer {client.access_token}",
                   "Content-Type": "application/json"}
        reply = await client.send(method, path, None if body is None else json.dumps(body),
                                  headers)
        try:
            if reply.status == 404 and method == "GET":
                return None
            data = await reply.json(content_type=None)
            if reply.status >= 400:
                raise Failed(ErrorResponse.from_dict(data if isinstance(data, dict) else {}))
            return data if isinstance(data, dict) else None
        finally:
            reply.release()
