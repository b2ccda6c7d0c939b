"""What the bot knows of its rooms' state, from the state and timeline events of its syncs:
members (and their display names), power levels, creators, encryption. The host rights,
the names handed to the service, whether a private room's reader is still there and
whether the bot may write or mute all follow from it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import names, power

if TYPE_CHECKING:
    from .adapter import MatrixAdapter


class RoomState:
    def __init__(self, adapter: MatrixAdapter) -> None:
        self.adapter = adapter
        self.power_levels: dict[str, dict[str, Any]] = {}
        self._creators: dict[str, set[str]] = {}  # rooms (v12+) whose creators outrank all
        self._members: dict[str, dict[str, tuple[str, str | None]]] = {}
        self._encrypted: set[str] = set()  # rooms with m.room.encryption

    def note(self, room_id: str, event: dict[str, Any]) -> None:
        """Power levels and members as the bot needs them (host rights, names, whether a
        private room's reader is still there), from state and timeline events."""
        adapter = self.adapter
        kind, state_key = event.get("type"), event.get("state_key")
        body = event.get("content") or {}
        if state_key is not None:
            adapter.standing.note(room_id, event)
        if kind == "m.room.encryption" and state_key == "":
            self._encrypted.add(room_id)
        elif kind == "m.room.power_levels" and state_key == "":
            self.power_levels[room_id] = body
        elif kind == "m.room.create" and state_key == "":
            self._creators[room_id] = power.creators(event)
        elif kind == "m.room.member" and isinstance(state_key, str):
            name = body.get("displayname")
            self._members.setdefault(room_id, {})[state_key] = (
                str(body.get("membership", "leave")), name if isinstance(name, str) else None)
            if state_key in adapter.rooms.by_user and body.get("membership") == "join":
                adapter.rooms.reinvited.discard(state_key)

    def forget(self, room_id: str) -> None:
        self.power_levels.pop(room_id, None)
        self._creators.pop(room_id, None)
        self._members.pop(room_id, None)
        self._encrypted.discard(room_id)
        self.adapter.rooms.forget(room_id)

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
        self.power_levels[room_id] = levels

    def is_encrypted(self, room_id: str) -> bool:
        client = self.adapter.client
        assert client is not None
        room = client.rooms.get(room_id)
        return room_id in self._encrypted or bool(room is not None and room.encrypted)

    def is_group(self, room_id: str) -> bool:
        """A room games are played in: not the bot's private or team rooms."""
        adapter = self.adapter
        return room_id not in adapter.rooms.rooms and room_id not in adapter.teams.by_room

    def name(self, room_id: str, user: str) -> str:
        adapter = self.adapter
        return names.display_name(self._members, room_id, user,
                                  set(adapter.rooms.rooms) | set(adapter.teams.by_room))

    def shares_a_room(self, user: str) -> bool:
        return any(members.get(user, ("",))[0] == "join" and self.is_group(room)
                   for room, members in self._members.items())

    async def levels(self, room_id: str) -> dict[str, Any]:
        """The room's power levels (and creators), read from the server if no sync has
        shown them yet."""
        if room_id not in self.power_levels or room_id not in self._creators:
            client = self.adapter.client
            assert client is not None
            response = await client.room_get_state(room_id)
            for event in getattr(response, "events", None) or []:
                if isinstance(event, dict):
                    self.note(room_id, event)
        return self.power_levels.get(room_id) or {}

    async def is_admin(self, room_id: str, user: str) -> bool:
        """Host rights: the sender may kick in this room (power level 50 by default), or
        created it (room version 12 gives creators unlimited power)."""
        levels = await self.levels(room_id)
        return self.power_of(room_id, user) >= power.as_int(levels.get("kick"), 50)

    def power_of(self, room_id: str, user: str) -> int:
        if user in self._creators.get(room_id, set()):
            return power.CREATOR_POWER
        return power.level_of(self.power_levels.get(room_id) or {}, user)
