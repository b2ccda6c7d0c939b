"""What happens to a game room itself, as the service's `ChatEvent`s (the Telegram adapter's
`member_events` and `service_event` for Matrix):

- the bot kicked or banned: `lost` ("removed"); let back in (invited again by someone it
  accepts, and joined): `restored`;
- the bot's power level below what sending needs: `lost` ("silenced"); raised again:
  `restored`; the power to change power levels (muting) gained: `rights`;
- the room upgraded (`m.room.tombstone`): the bot joins the replacement room and the games
  move there (`moved`), as a Telegram group that became a supergroup. An upgrade of an
  invite-only room invites nobody by itself: the bot joins when the one who upgraded it (or
  anybody) invites it there, whoever that is, since only the tombstone's sender could name
  the room.

Without this a kicked or silenced bot would see every message fail while the game's
deadlines went on deciding things nobody could read; the service instead pauses the game and
tells the host privately.
"""

from __future__ import annotations

import logging

from nio import AsyncClient, ErrorResponse

from core.service import ChatChange, ChatEvent, ChatRef, Lack, LostReason

from ..protocol.directory import Directory
from ..protocol.incoming import PLATFORM
from ..protocol.power import Standing, standing
from ..protocol.room_state import RoomState, Tombstoned
from ..store import MatrixStore
from .telling import Teller

log = logging.getLogger(__name__)


class Standings:
    def __init__(self, client: AsyncClient, state: RoomState, directory: Directory,
                 store: MatrixStore, user_id: str, teller: Teller) -> None:
        self.client = client
        self.state = state
        self.directory = directory
        self.store = store
        self.user_id = user_id
        self.teller = teller
        self.successors: dict[str, str] = {}  # upgraded room → its replacement
        self._followed: set[str] = set()  # replacement rooms the bot has joined
        self._known: dict[str, Standing] = {}
        self._changed: set[str] = set()
        self._moving: set[str] = set()

    def changed(self, room_id: str) -> None:
        """The bot's membership or the power levels changed in a room (read in a sync):
        whether its standing there changed is worked out after the sync's events
        (`apply`)."""
        self._changed.add(room_id)

    def upgraded(self, upgrade: Tombstoned) -> None:
        """The room was upgraded: the bot follows after the sync's events (`apply`)."""
        self.successors[upgrade.room_id] = upgrade.replacement
        self._moving.add(upgrade.room_id)

    def moved_to(self, room_id: str) -> str | None:
        """The room that replaced this one, once the bot is in it."""
        new = self.successors.get(room_id)
        return new if new in self._followed else None

    async def apply(self) -> None:
        changed, self._changed = self._changed, set()
        for room_id in sorted(changed):
            if self.directory.is_group(room_id):
                await self._check(room_id)
        moving, self._moving = self._moving, set()
        for room_id in sorted(moving):
            await self._follow(room_id, self.successors[room_id])

    async def left(self, room_id: str) -> None:
        """The bot is out of a room it was in (kicked or banned: it never leaves a game room
        by itself)."""
        self._known.pop(room_id, None)
        await self._tell(ChatEvent(PLATFORM, ChatRef(room_id), ChatChange.LOST,
                                   reason=LostReason.REMOVED))

    async def joined(self, room_id: str, lacks: tuple[Lack, ...] | None = None) -> None:
        """The bot accepted an invite into a group room: back, if it had been removed; and
        the replacement of an upgraded room takes over its games. A new room (`lacks`, the
        rights it misses there; None for a replacement) is greeted, unless a game runs
        there (the service's `Reach.arrived`)."""
        old = next((o for o, new in self.successors.items() if new == room_id), None)
        if old is not None:
            await self._moved(old, room_id)
        await self._tell(ChatEvent(PLATFORM, ChatRef(room_id), ChatChange.RESTORED))
        if lacks is not None:
            await self._tell(ChatEvent(PLATFORM, ChatRef(room_id), ChatChange.ARRIVED, lacks=lacks))

    def is_replacement(self, room_id: str) -> bool:
        return room_id in self.successors.values()

    async def _check(self, room_id: str) -> None:
        if self.state.membership(room_id, self.user_id) != "join":
            return  # a kick shows as a left room (`left`)
        now = standing(self.state.levels(room_id), self.state.power_of(room_id, self.user_id))
        before = self._known.get(room_id)
        self._known[room_id] = now
        if not now.can_write and (before is None or before.can_write):
            log.warning("matrix: the bot may no longer write in %s", room_id)
            await self._tell(ChatEvent(PLATFORM, ChatRef(room_id), ChatChange.LOST,
                                       reason=LostReason.SILENCED))
        elif now.can_write and before is not None and not before.can_write:
            await self._tell(ChatEvent(PLATFORM, ChatRef(room_id), ChatChange.RESTORED))
        if now.can_mute and (before is None or not before.can_mute):
            await self._tell(ChatEvent(PLATFORM, ChatRef(room_id), ChatChange.RIGHTS,
                                       can_restrict=True))

    async def _follow(self, old: str, new: str) -> None:
        """Join the replacement room; if the bot may not yet (not invited), it joins on the
        invite (`joined`)."""
        if self.state.membership(new, self.user_id) != "join":
            response = await self.client.join(new)
            if isinstance(response, ErrorResponse):
                log.info("matrix: %s was upgraded to %s, which the bot cannot join yet: %s",
                         old, new, response)
                return
            log.info("matrix: %s was upgraded; joined its replacement %s", old, new)
        await self._moved(old, new)

    async def _moved(self, old: str, new: str) -> None:
        """The games move once: a restart that reads the tombstone again finds the move
        done (a chat the old room got since, by a stray command, stays where it is)."""
        self._followed.add(new)
        if await self.store.load("upgraded", old) == new:
            return
        await self._tell(ChatEvent(PLATFORM, ChatRef(old), ChatChange.MOVED, new_ref=ChatRef(new)))
        await self.store.save(new, "upgraded", old)

    async def _tell(self, event: ChatEvent) -> None:
        await self.teller.tell(event)
