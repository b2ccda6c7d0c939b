"""A room's power levels (and creators) when no sync has shown them yet: read from the
server, and taken in as a sync's state events are (their changes routed)."""

from __future__ import annotations

from typing import Any

from nio import AsyncClient

from core.service import Lack

from ..protocol.power import lacking
from ..protocol.room_state import RoomState
from .routes import Routes


class Levels:
    def __init__(self, client: AsyncClient, state: RoomState, routes: Routes) -> None:
        self.client = client
        self.state = state
        self.routes = routes

    async def of(self, room_id: str) -> dict[str, Any]:
        """The room's power levels, read from the server if no sync has shown them (or
        who created the room) yet."""
        if not self.state.knows_levels(room_id):
            response = await self.client.room_get_state(room_id)
            for event in getattr(response, "events", None) or []:
                if isinstance(event, dict):
                    self.routes.note(room_id, event)
        return self.state.levels(room_id)

    async def is_admin(self, room_id: str, user: str) -> bool:
        """Host rights (see RoomState.is_admin), the levels read first if need be."""
        await self.of(room_id)
        return self.state.is_admin(room_id, user)

    async def lacks(self, room_id: str, user: str) -> tuple[Lack, ...]:
        """What `user` (the bot) misses in the room for a game (protocol/power.py)."""
        levels = await self.of(room_id)
        return lacking(levels, self.state.power_of(room_id, user))
