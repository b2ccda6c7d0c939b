"""Where each change of a room's state goes: the room state returns what changed (see
protocol/room_state.py) and this hands it to the parts that care, so none of them calls
another through the state.

- the bot's own membership and a room's power levels: its standing there (standing.py);
- an upgrade: the move to the replacement room (standing.py);
- a person joining a room: a private room he left and rejoined may be offered again, and
  what waited for him there is sent once he joined it (rooms.py).
"""

from __future__ import annotations

from typing import Any

from ..protocol.directory import Directory
from ..protocol.room_state import Change, MembershipChanged, PowerChanged, RoomState, Tombstoned
from .rooms import PrivateRooms
from .standing import Standings


class Routes:
    def __init__(self, state: RoomState, directory: Directory, rooms: PrivateRooms,
                 standing: Standings) -> None:
        self.state = state
        self.directory = directory
        self.rooms = rooms
        self.standing = standing

    def note(self, room_id: str, event: dict[str, Any]) -> None:
        """A state or timeline event read in a room: into the state, its changes routed."""
        for change in self.state.apply(room_id, event):
            self.route(change)

    def route(self, change: Change) -> None:
        match change:
            case MembershipChanged(room_id, user, membership):
                if user == self.standing.user_id:
                    self.standing.changed(room_id)
                if membership == "join":
                    self.rooms.joined(room_id, user)
            case PowerChanged(room_id):
                self.standing.changed(room_id)
            case Tombstoned():
                self.standing.upgraded(change)

    def forget(self, room_id: str) -> None:
        """The bot is out of the room: nothing of it is kept (a private room is no more)."""
        self.state.forget(room_id)
        self.directory.forget_private(room_id)
