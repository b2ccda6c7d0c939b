"""Printing what the bot says: `[group] text`, `[to Ann] text`, keyboards as
`[group] buttons: [Bob] [Cid]`. It remembers the newest keyboard offered in the group and to
each person, so that `Ann: [Bob]` can press a button by its label."""

from __future__ import annotations

from typing import TextIO

from core.service.ports import Outgoing, RateLimits

GROUP = "group"


class ConsoleAdapter:
    platform = "console"
    limits = RateLimits()

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.keyboards: dict[str, tuple[tuple[str, str], ...]] = {}
        self.transcript: list[str] = []

    async def send(self, message: Outgoing) -> None:
        where = f"to {message.recipient}" if message.private else "group"
        self._print(f"[{where}] {message.text}")
        if message.buttons:
            labels = " ".join(f"[{label}]" for label, _ in message.buttons)
            self._print(f"[{where}] buttons: {labels}")
            self.keyboards[message.chat_ref if message.private else GROUP] = message.buttons

    def _print(self, line: str) -> None:
        self.transcript.append(line)
        self.out.write(line + "\n")
        self.out.flush()

    def token_for(self, chat_ref: str, label: str) -> str | None:
        """The token of the button with this label on the newest keyboard of that chat."""
        wanted = label.strip().casefold()
        for shown, token in self.keyboards.get(chat_ref, ()):
            if shown.casefold() == wanted:
                return token
        return None
