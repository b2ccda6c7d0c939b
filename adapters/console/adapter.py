"""Printing what the bot says: `[group] text`, `[to Ann] text`, keyboards as
`[group] buttons: [Bob] [Cid]`, a pressed button's notice as `[notice to Ann] text`. A message
edited in place is printed again, its keyboard only when it changed. It remembers the newest
keyboard offered in the group and to each person (in its store, so a restart keeps them),
so that `Ann: [Bob]` can press a button by its label."""

from __future__ import annotations

from typing import TextIO

from core.service.adapter_store import AdapterStore
from core.service.ports import ButtonOut, Outgoing, RateLimits, Silence, TeamRoom
from core.service.runtime import Handler

GROUP = "group"
KEYBOARD = "keyboard"  # the store's namespace: chat → the newest keyboard shown there


class ConsoleAdapter:
    platform = "console"
    limits = RateLimits()

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.keyboards: dict[str, tuple[ButtonOut, ...]] = {}
        self.transcript: list[str] = []
        self.store: AdapterStore | None = None

    async def start(self, handle: Handler, store: AdapterStore) -> None:
        """The console reads its script itself (see session.py): only the keyboards shown
        before a restart are read back."""
        self.store = store
        self.keyboards = {chat: tuple(ButtonOut(*button) for button in buttons)
                          for chat, buttons in await store.scan(KEYBOARD)}

    async def stop(self) -> None:
        self.store = None

    async def send(self, message: Outgoing) -> None:
        where = f"to {message.recipient}" if message.private else "group"
        for line in message.text.split("\n"):
            if line:
                self._print(f"[{where}] {line}")
        chat = message.chat_ref if message.private else GROUP
        if message.buttons and (message.replace is None
                                or self.keyboards.get(chat) != message.buttons):
            labels = " ".join(f"[{button.label}]" for button in message.buttons)
            self._print(f"[{where}] buttons: {labels}")
            self.keyboards[chat] = message.buttons
            if self.store is not None:
                await self.store.put(KEYBOARD, chat, [list(b) for b in message.buttons])

    async def team(self, order: TeamRoom) -> None:
        """A terminal has no rooms: team talk is relayed, as the transcript shows."""

    async def silence(self, order: Silence) -> None:
        """A terminal cannot mute anybody; the transcript's readers know who is dead."""

    def notice(self, who: str, text: str) -> None:
        self._print(f"[notice to {who}] {text}")

    def _print(self, line: str) -> None:
        self.transcript.append(line)
        self.out.write(line + "\n")
        self.out.flush()

    def token_for(self, chat_ref: str, label: str) -> str | None:
        """The token of the button with this label on the newest keyboard of that chat."""
        wanted = label.strip().casefold()
        for button in self.keyboards.get(chat_ref, ()):
            if button.label.casefold() == wanted:
                return button.token
        return None
