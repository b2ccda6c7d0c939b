"""Muting a player in a game room (see protocol/power.py for what it needs): his power level
goes below what sending needs, the old one kept in the store to restore on unmuting.

A room's creator (room version 12 on) cannot be muted by anybody: his power is above every
level and the power levels may not even name him. The bot keeps him as `unmutable` in the
room instead (what he writes there is marked 👻 until his unmute, see receive.py) and raises
`Untouchable`, so the host is told, by name, in Matrix words."""

from __future__ import annotations

from nio import AsyncClient, ErrorResponse

from core.service import NotAllowed, Silence, Untouchable

from ..protocol.errors import Failed, is_forbidden
from ..protocol.power import as_int, standing
from ..protocol.room_state import RoomState
from ..store import MatrixStore
from .levels import Levels


class Muting:
    def __init__(self, client: AsyncClient, state: RoomState, levels: Levels,
                 store: MatrixStore, user_id: str) -> None:
        self.client = client
        self.state = state
        self.levels = levels
        self.store = store
        self.user_id = user_id

    async def silence(self, order: Silence) -> None:
        """Mute: the player's power level goes below what sending needs (events_default), the
        old level is kept; unmute restores it. Without the power to do it, `NotAllowed`: the
        order waits for the power and the host is told."""
        client, state, user_id = self.client, self.state, self.user_id
        room_id, user = order.chat.chat, order.user.id
        response = await client.room_get_state_event(room_id, "m.room.power_levels")
        if isinstance(response, ErrorResponse):
            raise Failed(response)
        levels = dict(response.content)
        state.note_levels(room_id, levels)
        await self.levels.of(room_id)  # and who created the room
        if state.is_creator(room_id, user):
            await self._unmutable(room_id, user, order.muted)
            return
        mine, current = state.power_of(room_id, user_id), state.power_of(room_id, user)
        may = standing(levels, mine).can_mute
        users = dict(levels.get("users") or {})
        if order.muted:
            target = as_int(levels.get("events_default"), 0) - 1
            if current <= target:
                return  # silent already
            if not may or current >= mine:
                raise NotAllowed(f"matrix: power level {mine} cannot mute {user} in {room_id}")
            await self.store.save({"level": users.get(user)}, "mute", room_id, user)
            users[user] = target
        else:
            saved = await self.store.load("mute", room_id, user)
            if saved is None:
                return
            if not may:
                raise NotAllowed(f"matrix: power level {mine} cannot unmute {user} in {room_id}")
            if saved.get("level") is None:
                users.pop(user, None)
            else:
                users[user] = saved["level"]
        levels["users"] = users
        put = await client.room_put_state(room_id, "m.room.power_levels", levels)
        if isinstance(put, ErrorResponse):
            if is_forbidden(put):
                raise NotAllowed(f"matrix: cannot change {user}'s power in {room_id}: {put}")
            raise Failed(put)
        state.note_levels(room_id, levels)
        if not order.muted:
            await self.store.drop("mute", room_id, user)

    async def _unmutable(self, room_id: str, user: str, muted: bool) -> None:
        """A creator: marked instead of muted (and no longer, on his unmute)."""
        if not muted:
            await self.store.drop("unmutable", room_id, user)
            return
        await self.store.save(True, "unmutable", room_id, user)
        raise Untouchable(f"matrix: {user} created {room_id}: nobody can lower his power")
