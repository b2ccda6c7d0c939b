"""Printing what the bot says: `[group] text`, `[to Ann] text`, keyboards as
`[group] buttons: [Bob] [Cid]`, a pressed button's notice as `[notice to Ann] text`. A message
edited in place is printed again, its keyboard only when it changed. It remembers the newest
keyboard offered in the group and to each person (in its store, so a restart keeps them),
so that `Ann: [Bob]` can press a button by its label. A ballot is printed as a keyboard: a
terminal has no polls. A picture is written to a file and its path printed."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import TextIO

from adapters.text_choices import chosen, token_by_label
from core.service import (
    AdapterStore,
    Ballot,
    ButtonOut,
    CatchUp,
    ChatRef,
    Handler,
    Keyboard,
    Picture,
    Post,
    RateLimits,
    Reader,
    Silence,
    TeamRoom,
    Wording,
)

from .howto import HOWTO

#: The one group chat of a terminal session.
CONSOLE_CHAT = ChatRef("group")
KEYBOARD = "keyboard"  # the store's namespace: chat → the newest keyboard shown there
VERSION = "version"  # (chat, key) → the lines last shown of a message edited in place


def chat_key(to: ChatRef | Reader) -> str:
    """Where a keyboard is remembered: "group", or the reader's ref (their name)."""
    return to.user.id if isinstance(to, Reader) else str(to)


class ConsoleAdapter:
    platform = "console"
    wording = Wording("/", HOWTO)  # its how-to texts (howto.py)
    limits = RateLimits()

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.keyboards: dict[str, tuple[ButtonOut, ...]] = {}
        # the lines last shown of each message that is edited in place, by chat and key
        self.versions: dict[tuple[str, str], list[str]] = {}
        self.transcript: list[str] = []
        self.store: AdapterStore | None = None
        self.pictures: Path | None = None  # where pictures are written (a temporary folder)
        self.closed = asyncio.Event()  # the output's reader is gone (pipe.py): stop writing

    async def start(self, handle: Handler, store: AdapterStore, catch_up: CatchUp) -> None:
        """The console reads its script itself (see session.py): only the keyboards shown
        before a restart are read back; nothing queues while it is away (no catch-up)."""
        self.store = store
        self.keyboards = {chat: tuple(ButtonOut(*button) for button in buttons)
                          for chat, buttons in await store.scan(KEYBOARD)}
        self.versions = {(chat, replace): lines
                         for _, (chat, replace, lines) in await store.scan(VERSION)}

    async def stop(self) -> None:
        self.store = None

    async def send_post(self, post: Post) -> None:
        await self._show(post.to, post.text, post.replace)

    async def send_picture(self, picture: Picture) -> None:
        """A terminal shows no images: the picture goes to a file, its path is printed."""
        if self.pictures is None:
            self.pictures = Path(tempfile.mkdtemp(prefix="nightfall-pictures-"))
        path = self.pictures / f"{picture.outbox_id}-{picture.name}"
        path.write_bytes(picture.image)
        await self._show(picture.to, f"{picture.text}\npicture: {path}")

    async def send_ballot(self, ballot: Ballot) -> None:
        await self._show(ballot.to, ballot.text, ballot.replace)
        await self._offer(ballot.to, ballot.options, edited=True)

    async def send_keyboard(self, keyboard: Keyboard) -> None:
        await self._show(keyboard.to, keyboard.text, keyboard.replace)
        await self._offer(keyboard.to, keyboard.buttons, edited=keyboard.replace is not None)

    async def _show(self, to: ChatRef | Reader, text: str, replace: str | None = None) -> None:
        """A terminal cannot edit what it printed: a newer version of a message (the
        sign-up list, the ballot with its tally, a keyboard showing the choice) prints only
        its lines the last version did not have, so the vote prompt is not printed again
        with every vote, nor the sign-up with every join (also not after a restart)."""
        lines = [line for line in text.split("\n") if line]
        if replace is not None:
            chat = chat_key(to)
            shown = self.versions.get((chat, replace))
            self.versions[chat, replace] = lines
            if self.store is not None:
                await self.store.put(VERSION, f"{chat} {replace}", [chat, replace, lines])
            if shown is not None:
                lines = [line for line in lines if line not in shown]
        for line in lines:
            self._print(f"[{_where(to)}] {line}")

    async def _offer(self, to: ChatRef | Reader, buttons: tuple[ButtonOut, ...],
                     edited: bool) -> None:
        """A keyboard is printed when it is new, or an edit changed it (an edit showing the
        choice made keeps the buttons as they were)."""
        chat = chat_key(to)
        if buttons and (not edited or self.keyboards.get(chat) != buttons):
            labels = " ".join(f"[{button.label}]" for button in buttons)
            self._print(f"[{_where(to)}] buttons: {labels}")
            self.keyboards[chat] = buttons
            if self.store is not None:
                await self.store.put(KEYBOARD, chat, [list(b) for b in buttons])

    async def team(self, order: TeamRoom) -> None:
        """A terminal has no rooms: team talk is relayed, as the transcript shows."""

    async def silence(self, order: Silence) -> None:
        """A terminal cannot mute anybody; the transcript's readers know who is dead."""

    def notice(self, who: str, text: str) -> None:
        self._print(f"[notice to {who}] {text}")

    def notice_console(self, text: str) -> None:
        """A line of the console's own (a script line it did not understand): printed, not
        part of the chat's transcript."""
        self._write(f"[console] {text}")

    def _print(self, line: str) -> None:
        self.transcript.append(line)
        self._write(line)

    def _write(self, line: str) -> None:
        if self.closed.is_set():
            return
        try:
            self.out.write(line + "\n")
            self.out.flush()
        except BrokenPipeError:  # `nightfall play | head`: the program ends (pipe.py)
            self.closed.set()

    def token_for(self, chat: str, label: str) -> str | None:
        """The token of the button with this label on the newest keyboard of that chat, or
        (no label says it) of the button with this number, counted from 1 as on Matrix."""
        buttons = self.keyboards.get(chat, ())
        found = token_by_label(label, buttons)
        number = chosen(label, [b.label for b in buttons]) if found is None else None
        return found if number is None else buttons[number - 1].token


def _where(to: ChatRef | Reader) -> str:
    return f"to {to.name}" if isinstance(to, Reader) else "group"
