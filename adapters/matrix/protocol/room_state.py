"""What the bot knows of its rooms' state, from the state and timeline events of its syncs:
members (and their display names), power levels, creators, encryption, the room's name.

Pure: `apply` takes one event and returns what changed that other parts care about (a
membership, the power levels, an upgrade) as typed changes; the sync routes them (see
client/routes.py). Host rights, names and the bot's standing are worked out from what is kept
here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import power


@dataclass(frozen=True)
class MembershipChanged:
    """A member event: `user` is now `membership` ("join", "invite", "leave", "ban") in the room."""

    room_id: str
    user: str
    membership: str


@dataclass(frozen=True)
class PowerChanged:
    """The room's power levels were set (the bot's standing there may have changed)."""

    room_id: str


@dataclass(frozen=True)
class Tombstoned:
    """The room was upgraded: `replacement` takes over its games."""

    room_id: str
    replacement: str


Change = MembershipChanged | PowerChanged | Tombstoned


def tombstone(room_id: str, event: dict[str, Any]) -> Tombstoned | None:
    """The upgrade an `m.room.tombstone` state event announces (none that names the room
    itself or no room)."""
    if event.get("type") != "m.room.tombstone" or event.get("state_key") != "":
        return None
    replacement = (event.get("content") or {}).get("replacement_room")
    if isinstance(replacement, str) and replacement != room_id:
        return Tombstoned(room_id, replacement)
    return None


class RoomState:
    def __init__(self) -> None:
        self.power_levels: dict[str, dict[str, Any]] = {}
        self._creators: dict[str, set[str]] = {}  # rooms (v12+) whose creators outrank all
        self.members: dict[str, dict[str, tuple[str, str | None]]] = {}
        self._encrypted: set[str] = set()  # rooms with m.room.encryption
        self._titles: dict[str, str] = {}  # rooms with an m.room.name

    def apply(self, room_id: str, event: dict[str, Any]) -> list[Change]:
        """Take in a state or timeline event; what changed for the other parts."""
        kind, state_key = event.get("type"), event.get("state_key")
        body = event.get("content") or {}
        changes: list[Change] = []
        if kind == "m.room.power_levels" and state_key is not None:
            changes.append(PowerChanged(room_id))
        if kind == "m.room.encryption" and state_key == "":
            self._encrypted.add(room_id)
        elif kind == "m.room.power_levels" and state_key == "":
            self.power_levels[room_id] = body
        elif kind == "m.room.create" and state_key == "":
            self._creators[room_id] = power.creators(event)
        elif kind == "m.room.name" and state_key == "":
            title = " ".join(str(body.get("name") or "").split())[:255]
            if title:
                self._titles[room_id] = title
            else:
                self._titles.pop(room_id, None)
        elif kind == "m.room.member" and isinstance(state_key, str):
            name = body.get("displayname")
            membership = str(body.get("membership", "leave"))
            self.members.setdefault(room_id, {})[state_key] = (
                membership, name if isinstance(name, str) else None)
            changes.append(MembershipChanged(room_id, state_key, membership))
        elif (upgrade := tombstone(room_id, event)) is not None:
            changes.append(upgrade)
        return changes

    def forget(self, room_id: str) -> None:
        self.power_levels.pop(room_id, None)
        self._creators.pop(room_id, None)
        self.members.pop(room_id, None)
        self._encrypted.discard(room_id)
        self._titles.pop(room_id, None)

    def membership(self, room_id: str, user: str) -> str | None:
        member = self.members.get(room_id, {}).get(user)
        return None if member is None else member[0]

    def members_of(self, room_id: str) -> list[str]:
        return list(self.members.get(room_id, {}))

    def forget_members(self, room_id: str) -> None:
        self.members.pop(room_id, None)

    def note_membership(self, room_id: str, user: str, membership: str) -> None:
        self.members.setdefault(room_id, {})[user] = (membership, None)

    def note_levels(self, room_id: str, levels: dict[str, Any]) -> None:
        self.power_levels[room_id] = levels

    def title(self, room_id: str) -> str | None:
        """The room's name (`m.room.name`, on one line), which the host is told his game's
        group by; None for a room without one."""
        return self._titles.get(room_id)

    def is_encrypted(self, room_id: str) -> bool:
        """Whether an `m.room.encryption` event was seen (nio may know it from elsewhere)."""
        return room_id in self._encrypted

    def knows_levels(self, room_id: str) -> bool:
        """Whether the power levels and the creators were seen (else they are fetched)."""
        return room_id in self.power_levels and room_id in self._creators

    def levels(self, room_id: str) -> dict[str, Any]:
        return self.power_levels.get(room_id) or {}

    def is_admin(self, room_id: str, user: str) -> bool:
        """Host rights: the sender may kick in this room (power level 50 by default), or
        created it (room version 12 gives creators unlimited power)."""
        kick = power.as_int(self.levels(room_id).get("kick"), 50)
        return self.power_of(room_id, user) >= kick

    def is_creator(self, room_id: str, user: str) -> bool:
        """Whether the user created the room (or was named an additional creator) in a
        room version that gives creators unlimited power (12 on)."""
        return user in self._creators.get(room_id, set())

    def power_of(self, room_id: str, user: str) -> int:
        if self.is_creator(room_id, user):
            return power.CREATOR_POWER
        return power.level_of(self.levels(room_id), user)
