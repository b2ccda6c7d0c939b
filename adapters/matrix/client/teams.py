"""Team chats as rooms of their own (the changelings, xing and the bodyguard, the dead...):
created on first need, then kept in line with the team: whoever joins the team chat is
invited, whoever leaves it (the dead, a replaced player) is removed by the bot.

As with private rooms (rooms.py), the room is created without invites and its members are
invited one by one: Synapse creates a room before it invites, so one invitee whose server
fails would otherwise leave an orphan room behind and make each retry create another. An
invite that may pass later makes the order fail after the others were invited (the retry
invites who is still missing, in the same room); one that cannot work is logged and the
rest of the team gets its room.
"""

from __future__ import annotations

import logging

from nio import AsyncClient, ErrorResponse, RoomPreset

from core.service import TeamKey, TeamRoom

from ..protocol.directory import Directory
from ..protocol.errors import Failed
from ..protocol.room_state import RoomState
from ..store import MatrixStore
from .rooms import may_pass

log = logging.getLogger(__name__)
# A team room: only the bot (its creator, power 100 before room version 12) may invite, kick
# or change the room (encryption, history); members talk. History is visible from joining
# on, as a relay would have shown a newcomer nothing older.
TEAM_LEVELS = {"invite": 100, "kick": 100, "ban": 100, "redact": 50, "state_default": 100,
               "events_default": 0, "users_default": 0}
TEAM_STATE = ({"type": "m.room.history_visibility", "state_key": "",
               "content": {"history_visibility": "joined"}},
              {"type": "m.room.guest_access", "state_key": "",
               "content": {"guest_access": "forbidden"}})


class TeamRooms:
    def __init__(self, client: AsyncClient, state: RoomState, directory: Directory,
                 store: MatrixStore, user_id: str) -> None:
        self.client = client
        self.state = state
        self.directory = directory
        self.store = store
        self.user_id = user_id

    async def load(self) -> None:
        kept = await self.store.load("teams", self.user_id) or {}
        self.directory.set_teams({TeamKey.parse(key): room for key, room in kept.items()})

    def room_of(self, key: TeamKey) -> str | None:
        return self.directory.team_rooms.get(key)

    async def _keep(self) -> None:
        await self.store.save({str(key): room for key, room in self.directory.team_rooms.items()},
                              "teams", self.user_id)

    async def update(self, order: TeamRoom) -> None:
        """Create the room if need be, invite who is missing, remove who left the team."""
        client, state = self.client, self.state
        wanted = {member.id for member in order.members if not member.anonymous}
        room_id = self.room_of(order.key)
        if room_id is None:
            if not wanted:
                return
            room_id = await self._create(order)
        present = {user for user in state.members_of(room_id)
                   if state.membership(room_id, user) in ("join", "invite")
                   and user != self.user_id}
        later: ErrorResponse | None = None
        for user in sorted(wanted - present):
            response = await client.room_invite(room_id, user)
            if not isinstance(response, ErrorResponse):
                state.note_membership(room_id, user, "invite")
            elif may_pass(response):
                later = later or response
            else:
                log.warning("matrix: %s cannot be invited to team room %s: %s", user,
                            room_id, response)
        for user in sorted(present - wanted):
            response = await client.room_kick(room_id, user)
            if isinstance(response, ErrorResponse):
                raise Failed(response)
            state.note_membership(room_id, user, "leave")
        if later is not None:
            raise Failed(later)

    async def close(self, key: TeamKey, room_id: str) -> None:
        """The game is over (its farewell posted): leave and forget the room (the players
        keep it); the bot no longer syncs it or answers there."""
        response = await self.client.room_leave(room_id)
        if isinstance(response, ErrorResponse):
            raise Failed(response)
        await self.client.room_forget(room_id)
        self.directory.forget_team(key, room_id)
        self.state.forget_members(room_id)
        await self._keep()

    async def _create(self, order: TeamRoom) -> str:
        created = await self.client.room_create(
            name=order.title, topic=order.about, preset=RoomPreset.private_chat,
            initial_state=list(TEAM_STATE), power_level_override=TEAM_LEVELS)
        if isinstance(created, ErrorResponse):
            raise Failed(created)
        room_id = str(created.room_id)
        self.directory.add_team(order.key, room_id)
        await self._keep()
        return room_id
