"""The bot's own rooms (a private room with each person, a room for each team chat) apart from
the game rooms, and what follows from telling them apart: whether a room is a game room, the
name a person goes by, whether a person shares a game room with the bot. Pure: the private and
team rooms' parts (client/rooms.py, client/teams.py) fill it."""

from __future__ import annotations

from core.service import TeamKey

from . import names
from .room_state import RoomState


class Directory:
    def __init__(self, state: RoomState) -> None:
        self.state = state
        self.by_user: dict[str, list[str]] = {}  # user → their private rooms, newest last
        self.private: dict[str, str] = {}  # private room → its user
        self.team_rooms: dict[TeamKey, str] = {}  # team → its room
        self.teams: dict[str, TeamKey] = {}  # team room → its team
        self.last_group: dict[str, str] = {}  # user → the group room he last wrote in

    def set_private(self, by_user: dict[str, list[str]]) -> None:
        self.by_user = by_user
        self.private = {room: user for user, rooms in by_user.items() for room in rooms}

    def add_private(self, user: str, room_id: str) -> None:
        self.by_user[user] = [r for r in self.by_user.get(user, []) if r != room_id] + [room_id]
        self.private[room_id] = user

    def newest(self, user: str) -> str | None:
        """The person's newest private room with the bot."""
        rooms = self.by_user.get(user)
        return rooms[-1] if rooms else None

    def forget_private(self, room_id: str) -> None:
        user = self.private.pop(room_id, None)
        if user is not None and room_id in self.by_user.get(user, []):
            self.by_user[user].remove(room_id)

    def set_teams(self, team_rooms: dict[TeamKey, str]) -> None:
        self.team_rooms = team_rooms
        self.teams = {room: key for key, room in team_rooms.items()}

    def add_team(self, key: TeamKey, room_id: str) -> None:
        self.team_rooms[key] = room_id
        self.teams[room_id] = key

    def forget_team(self, key: TeamKey, room_id: str) -> None:
        self.team_rooms.pop(key, None)
        self.teams.pop(room_id, None)

    def is_group(self, room_id: str) -> bool:
        """A room games are played in: not the bot's private or team rooms."""
        return room_id not in self.private and room_id not in self.teams

    def name(self, room_id: str, user: str) -> str:
        """The person's name in his game's room (see protocol/names.py)."""
        return names.display_name(self.state.members, room_id, user,
                                  set(self.private) | set(self.teams),
                                  self.last_group.get(user))

    def wrote_in(self, room_id: str, user: str) -> None:
        """The person wrote in a room: a group room names him from now on."""
        if self.is_group(room_id):
            self.last_group[user] = room_id

    def shares_a_room(self, user: str) -> bool:
        return any(members.get(user, ("",))[0] == "join" and self.is_group(room)
                   for room, members in self.state.members.items())
