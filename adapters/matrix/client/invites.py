"""Whose invites the bot accepts.

- Group rooms: only from the people and servers the host listed in `allow`; with `allow`
  empty the bot accepts no group invites at all, as anyone on its server could otherwise
  pull it into any room and run games there.
- Direct chats: also from a person who shares a group room with the bot (a player opening
  his private chat). An encrypted one is declined unless the host asked for encrypted
  private rooms (`encrypt_private`): nio has no cross-signing, clients that hide unverified
  devices would hide the bot's role cards there and may keep their keys from it. The person
  is told why, in the bot's own private room with him. (nio drops `m.room.encryption` from
  an invite's stripped state, so the bot joins, looks, and leaves again at once.)
- The replacement of an upgraded game room: from anyone (only who sent the tombstone could
  name that room), and the game moves there (see standing.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from nio import AsyncClient, ErrorResponse, RoomGetStateEventResponse

from ..protocol.directory import Directory
from ..settings import MatrixSettings
from .rooms import PrivateRooms
from .standing import Standings
from .telling import Teller

log = logging.getLogger(__name__)


def allowed(inviter: str, allow: Sequence[str]) -> bool:
    """Whether `allow` lets `inviter` invite the bot: an "@user:server" entry names one
    person, a ":server" entry a whole server; no entries let nobody."""
    server = inviter.partition(":")[2]
    for entry in allow:
        if entry.startswith("@") and entry == inviter:
            return True
        if entry.startswith(":") and entry[1:] == server:
            return True
    return False


class Invites:
    def __init__(self, client: AsyncClient, directory: Directory, rooms: PrivateRooms,
                 standing: Standings, teller: Teller, settings: MatrixSettings) -> None:
        self.client = client
        self.directory = directory
        self.rooms = rooms
        self.standing = standing
        self.teller = teller
        self.settings = settings
        self.user_id = settings.user_id

    async def on_invite(self, room_id: str, state: list[dict[str, Any]]) -> None:
        client = self.client
        invite = next((e for e in state if e.get("type") == "m.room.member"
                       and e.get("state_key") == self.user_id), None)
        if invite is None:
            return
        inviter = str(invite.get("sender", ""))
        direct = bool((invite.get("content") or {}).get("is_direct"))
        permitted = allowed(inviter, self.settings.allow)
        replacement = self.standing.is_replacement(room_id)
        if direct and (permitted or self.directory.shares_a_room(inviter)):
            if not await self._join(room_id, inviter):
                return
            if self.settings.encrypt_private or not await self._encrypted(room_id):
                await self.rooms.add(inviter, room_id)
                return
            log.info("matrix: left %s's encrypted direct chat %s", inviter, room_id)
            if not isinstance(await client.room_leave(room_id), ErrorResponse):
                await client.room_forget(room_id)
            await self.teller.tell_about(inviter, room_id, "encrypted_room",
                                         f"encrypted-{room_id}")
            return
        if permitted or replacement:
            if await self._join(room_id, inviter):
                await self.standing.joined(room_id)
            return
        log.info("matrix: declined %s's invite to %s", inviter, room_id)
        await client.room_leave(room_id)

    async def _encrypted(self, room_id: str) -> bool:
        state = await self.client.room_get_state_event(room_id, "m.room.encryption")
        return isinstance(state, RoomGetStateEventResponse)

    async def _join(self, room_id: str, inviter: str) -> bool:
        response = await self.client.join(room_id)
        if isinstance(response, ErrorResponse):
            log.warning("matrix: cannot join %s: %s", room_id, response)
            return False
        log.info("matrix: joined %s on %s's invite", room_id, inviter)
        return True
