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
game's group, once.

Private rooms stay unencrypted unless the host asks for encryption (`encrypt_private`): nio
has no cross-signing, so clients that hide unverified devices would hide the bot's role
cards, and could keep their keys from the bot. For the same reason an encrypted room a
player opens with the bot is not used for secrets (see invites.py).
"""

from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING, Any

from nio import ErrorResponse, RoomPreset
from nio.api import Api

from core.service import Unreachable

from . import store
from .errors import NETWORK_ERRORS, Failed, http_status, is_rate_limited

if TYPE_CHECKING:
    from .adapter import MatrixAdapter

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
    def __init__(self, adapter: MatrixAdapter) -> None:
        self.adapter = adapter
        self.by_user: dict[str, list[str]] = {}  # user → their private rooms, newest last
        self.rooms: dict[str, str] = {}  # room → user
        self.reinvited: set[str] = set()
        self.waiting: dict[str, float] = {}  # room → when its invite went out (unaccepted)

    async def load(self) -> None:
        user_id = self.adapter.user_id
        dms = await store.load("dm", user_id) or {}
        self.by_user = {user: list(rooms) for user, rooms in dms.items()}
        self.rooms = {room: user for user, rooms in self.by_user.items() for room in rooms}
        self.waiting = dict(await store.load("invites", user_id) or {})

    def newest(self, user: str) -> str | None:
        rooms = self.by_user.get(user)
        return rooms[-1] if rooms else None

    def forget(self, room_id: str) -> None:
        user = self.rooms.pop(room_id, None)
        if user is not None and room_id in self.by_user.get(user, []):
            self.by_user[user].remove(room_id)

    async def add(self, user: str, room_id: str) -> None:
        """Remember a private room (in the database and in the bot's m.direct account
        data, which clients read to show it as a direct chat)."""
        rooms = [r for r in self.by_user.get(user, []) if r != room_id] + [room_id]
        self.by_user[user] = rooms
        self.rooms[room_id] = user
        await store.save(self.by_user, "dm", self.adapter.user_id)
        try:
            await self._put_direct()
        except (Failed, *NETWORK_ERRORS) as err:
            log.info("matrix: m.direct not updated: %s", err)

    async def room_for(self, user: str) -> str:
        """The person's private room with the bot, created (and the person invited) on
        first need. Someone who left it is invited again, once; who left again, or may not
        be invited, is unreachable until they write to the bot."""
        adapter = self.adapter
        rooms = [r for r in self.by_user.get(user, []) if self._usable(r)]
        if rooms:
            room_id = rooms[-1]
            membership = adapter.state.membership(room_id, user) or "invite"
            if membership in ("join", "invite"):
                return room_id
            if membership == "ban" or user in self.reinvited:
                raise Unreachable(f"matrix: {user} left the private room")
            await self._invite(room_id, user, created=False)
            self.reinvited.add(user)
            return room_id
        room_id = await store.load("creating", user)
        if room_id is None:
            room_id = await self._create()
            await store.save(room_id, "creating", user)
        try:
            await self._invite(room_id, user, created=True)
        except OlderServer:  # once more, in a room version every server knows
            room_id = await self._create(FALLBACK_VERSION)
            await store.save(room_id, "creating", user)
            try:
                await self._invite(room_id, user, created=True)
            except OlderServer as err:
                raise Unreachable(f"matrix: {user} cannot be invited: {err}") from err
        await store.drop("creating", user)
        adapter.state.note_membership(room_id, user, "invite")
        await self.add(user, room_id)
        self.waiting[room_id] = time.time()
        await store.save(self.waiting, "invites", adapter.user_id)
        return room_id

    async def overdue(self) -> list[tuple[str, str]]:
        """(user, room) of each invite still not accepted after `invite_wait` seconds; each
        is given once (the reminder), and accepted ones are dropped."""
        adapter = self.adapter
        now, found, changed = time.time(), [], False
        for room_id, since in list(self.waiting.items()):
            user = self.rooms.get(room_id)
            if user is None or adapter.state.membership(room_id, user) not in (None, "invite"):
                del self.waiting[room_id]
                changed = True
            elif now - since >= adapter.settings.invite_wait:
                found.append((user, room_id))
                del self.waiting[room_id]
                changed = True
        if changed:
            await store.save(self.waiting, "invites", adapter.user_id)
        return found

    def _usable(self, room_id: str) -> bool:
        return self.adapter.settings.encrypt_private or not self.adapter.state.is_encrypted(room_id)

    async def _create(self, version: str | None = None) -> str:
        """A new private room, in the homeserver's default room version or `version`."""
        client = self.adapter.client
        assert client is not None
        created = await client.room_create(
            is_direct=True, preset=RoomPreset.private_chat, room_version=version,
            initial_state=[MEGOLM] if self.adapter.settings.encrypt_private else [])
        if isinstance(created, ErrorResponse):
            raise Failed(created)
        return str(created.room_id)

    async def _invite(self, room_id: str, user: str, created: bool) -> None:
        """Invite as a direct chat (the member event says `is_direct`, as createRoom's
        invite would). A failure that may pass is raised for a retry on this room; one that
        cannot makes the person unreachable, and a room just created for them is left and
        forgotten (no orphan stays behind); a server that does not know the room's version
        raises `OlderServer`, for a new room in an older version."""
        client = self.adapter.client
        assert client is not None
        response = await client.room_put_state(room_id, "m.room.member",
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
        client = self.adapter.client
        assert client is not None
        left = await client.room_leave(room_id)
        if isinstance(left, ErrorResponse):
            log.warning("matrix: cannot leave the unused room %s: %s", room_id, left)
        else:
            await client.room_forget(room_id)
        await store.drop("creating", user)

    async def _put_direct(self) -> None:
        current = await self._account_data("GET", "m.direct") or {}
        merged = {user: list(rooms) for user, rooms in current.items()
                  if isinstance(rooms, list)}
        for user, rooms in self.by_user.items():
            merged[user] = [r for r in merged.get(user, []) if r not in rooms] + rooms
        await self._account_data("PUT", "m.direct", merged)

    async def _account_data(self, method: str, kind: str,
                            body: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """nio has no setter for global account data: the plain client-server call."""
        client = self.adapter.client
        assert client is not None
        path = Api._build_path(["user", self.adapter.user_id, "account_data", kind])
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
