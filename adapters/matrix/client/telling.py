"""Handing the service what the bot reads: a person's message, press or news (`Incoming`,
named as the rooms name him), news about a game room itself (`ChatEvent`) and about
people leaving it or coming back (`Membership`)."""

from __future__ import annotations

from typing import Any

from core.service import (
    ChatEvent,
    ChatRef,
    Handler,
    Incoming,
    Membership,
    Notice,
    Situation,
    UserRef,
)

from ..protocol.directory import Directory
from ..protocol.incoming import PLATFORM


class Teller:
    def __init__(self, handle: Handler, directory: Directory) -> None:
        self.handle = handle
        self.directory = directory

    async def give(self, incoming: Incoming) -> Notice | None:
        return await self.handle(incoming)

    async def tell(self, event: ChatEvent | Membership) -> None:
        """News about a game room itself (see standing.py), or a person leaving it or
        coming back (protocol/members.py)."""
        await self.handle(event)

    def incoming(self, room_id: str, event_id: str, sender: str, private: bool,
                 **fields: Any) -> Incoming:
        if not private:
            self.directory.wrote_in(room_id, sender)
        return Incoming(platform=PLATFORM, update_id=event_id, user=UserRef(sender),
                        user_name=self.directory.name(room_id, sender),
                        chat=None if private else ChatRef(room_id),
                        chat_title=None if private else self.directory.state.title(room_id),
                        **fields)

    async def tell_about(self, user: str, room_id: str, situation: Situation,
                         update_id: str, group: bool = False) -> None:
        """Hand the service news about a person (see `ports.Situation`), seen in a game
        room (`group`) or elsewhere."""
        await self.give(Incoming(platform=PLATFORM, update_id=update_id, user=UserRef(user),
                                 user_name=self.directory.name(room_id, user),
                                 situation=situation,
                                 chat=ChatRef(room_id) if group else None))

    async def unreadable(self, room_id: str, event: dict[str, Any]) -> None:
        """An event the bot could not decrypt: its sender is told (once per Megolm session,
        and his game's group once), rather than his commands vanishing."""
        sender = str(event.get("sender", ""))
        session = (event.get("content") or {}).get("session_id")
        await self.tell_about(sender, room_id, "unreadable", f"unreadable-{sender}-{session}",
                              group=self.directory.is_group(room_id))
