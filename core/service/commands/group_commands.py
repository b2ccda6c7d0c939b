"""What the group's command rooms share: a command word answered by the room's
`_cmd_<word>` method, if it has one (the lobby, the information commands)."""

from __future__ import annotations

from core.storage.models import Chat, Identity

from .context import ServiceContext


class GroupCommands:
    """A room of group commands; each answers with `_cmd_<word>(rest, chat, person, admin)`."""

    def __init__(self, service: ServiceContext) -> None:
        self.service = service

    async def handle(self, word: str, rest: str, chat: Chat, person: Identity,
                     admin: bool) -> bool:
        """Answer the command if this room has it; False if `word` is none of its."""
        handler = getattr(self, f"_cmd_{word}", None)
        if handler is None:
            return False
        await handler(rest, chat, person, admin)
        return True
