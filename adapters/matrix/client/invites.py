"""Whose invites the bot accepts.

- Group rooms: only from the people and servers the host listed in `allow`; with `allow`
  empty the bot accepts no group invites at all, as anyone on its server could otherwise
  pull it into any room and run games there.
- Direct chats: also from a person who shares a group room with the bot (a player opening
  his private chat, as Element's "Start chat" does: `is_direct`, encrypted by default). The
  room becomes his private room with the bot, the newest one, where role cards, prompts and
  answers go from then on; an encrypted one is read and written encrypted. Only a room of
  him and the bot alone is taken: a "direct" chat with others in it would show them his
  secrets, so the bot leaves it. Without encryption (no key store) the bot cannot read an
  encrypted room: it leaves that one and tells the person so in its own private room with
  him, which is where he acts then. (nio drops `m.room.encryption` from an invite's
  stripped state, so the bot joins before it looks.)
- The replacement of an upgraded game room: from anyone (only who sent the tombstone could
  name that room), and the game moves there (see standing.py).

In a group room it has joined the bot says hello, once per invitation, with what each right it
misses costs (its power levels, read from the server as no sync has shown them yet; see
protocol/power.py `lacking`); the service keeps quiet where a game already runs. A
replacement room is no new room to its players: the game moves there without a greeting.

A declined invite is rejected with its reason (the `reason` of the leave, shown with the
rejection), in every language the bot speaks, as the inviter's language is unknown: a host
whose `allow` list is wrong otherwise saw his invite vanish without a word (issue 32). The
bot does not join to explain: an invite from anyone would then buy a message in any room.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from nio import (
    Api,
    AsyncClient,
    ErrorResponse,
    RoomGetStateEventResponse,
    RoomGetStateResponse,
)

from core.engine.messages import N_
from core.i18n import available_locales, translations

from ..protocol.directory import Directory
from ..settings import MatrixSettings
from .levels import Levels
from .rooms import PrivateRooms
from .standing import Standings
from .telling import Teller

log = logging.getLogger(__name__)

DECLINED = N_("I accept invites only from the accounts and servers listed in my configuration "
              "({setting}). Ask whoever runs this bot to add you.")
SETTING = "matrix.allow, nightfall.toml"


def declined_reason() -> str:
    """Why the bot declined, in each of its languages (English first)."""
    return " / ".join(dict.fromkeys(translations(locale).gettext(DECLINED).format(setting=SETTING)
                                    for locale in ["en", *sorted(available_locales())]))


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
                 standing: Standings, teller: Teller, settings: MatrixSettings,
                 levels: Levels) -> None:
        self.client = client
        self.levels = levels
        self.directory = directory
        self.rooms = rooms
        self.standing = standing
        self.teller = teller
        self.settings = settings
        self.user_id = settings.user_id

    async def on_invite(self, room_id: str, state: list[dict[str, Any]]) -> None:
        invite = next((e for e in state if e.get("type") == "m.room.member"
                       and e.get("state_key") == self.user_id), None)
        if invite is None:
            return
        inviter = str(invite.get("sender", ""))
        direct = bool((invite.get("content") or {}).get("is_direct"))
        permitted = allowed(inviter, self.settings.allow)
        replacement = self.standing.is_replacement(room_id)
        if direct and (permitted or self.directory.shares_a_room(inviter)):
            await self._direct(room_id, inviter)
            return
        if permitted or replacement:
            if await self._join(room_id, inviter):
                lacks = None if replacement else await self.levels.lacks(room_id, self.user_id)
                await self.standing.joined(room_id, lacks)
            return
        log.warning("matrix: declined %s's invite to %s: not in matrix.allow", inviter, room_id)
        await self._decline(room_id)

    async def _direct(self, room_id: str, inviter: str) -> None:
        """A direct chat a person opened: his private room, if the bot can use it."""
        if not await self._join(room_id, inviter):
            return
        if not await self._alone_with(room_id, inviter):
            log.info("matrix: left %s's direct chat %s: others are in it", inviter, room_id)
            await self._leave(room_id)
            return
        if self.client.olm is None and await self._encrypted(room_id):
            log.info("matrix: left %s's encrypted direct chat %s (encryption is off)",
                     inviter, room_id)
            await self._leave(room_id)
            await self.teller.tell_about(inviter, room_id, "encrypted_room",
                                         f"encrypted-{room_id}")
            return
        await self.rooms.add(inviter, room_id)
        self.rooms.opened_by(inviter, room_id)  # he is in it: what waited for him goes

    async def _alone_with(self, room_id: str, person: str) -> bool:
        """Whether nobody but the person and the bot is in the room or invited to it."""
        state = await self.client.room_get_state(room_id)
        if not isinstance(state, RoomGetStateResponse):
            log.warning("matrix: cannot read the state of %s: %s", room_id, state)
            return False
        present = {e.get("state_key") for e in state.events
                   if e.get("type") == "m.room.member"
                   and (e.get("content") or {}).get("membership") in ("join", "invite")}
        return present <= {person, self.user_id}

    async def _decline(self, room_id: str) -> None:
        """Reject the invite with its reason (nio's `room_leave` sends no body)."""
        client = self.client
        headers = {"Authorization": f"Bearer {client.access_token}",
                   "Content-Type": "application/json"}
        reply = await client.send("POST", Api._build_path(["rooms", room_id, "leave"]),
                                  json.dumps({"reason": declined_reason()}), headers)
        try:
            if reply.status >= 400:
                log.warning("matrix: cannot decline the invite to %s: %s", room_id,
                            await reply.text())
        finally:
            reply.release()

    async def _leave(self, room_id: str) -> None:
        if not isinstance(await self.client.room_leave(room_id), ErrorResponse):
            await self.client.room_forget(room_id)

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
