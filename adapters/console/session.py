"""Driving the service from script lines (a file, stdin, or the demo's simulated players).

Input: `Ann: text` (Ann writes in the group), `Ann> text` (privately to the bot),
`Ann: [Label]` / `Ann> [Label]` (Ann presses that button on the newest group / private
keyboard offered to her), `:wait 90s` / `:wait 2h` (the manual clock moves on and due deadlines
fire), `:restart` (the service stops and starts again from the database), `#` comments.

The session runs the service's `Runtime` without its loop: it fires deadlines and delivers
after each line itself. What it keeps across restarts (the manual clock, its update counter)
is in the console's store.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TextIO

from core.service import AdapterStore, Command, Incoming, UserRef
from core.service.commands.game_service import GameService
from core.service.commands.local import open_group
from core.service.delivery.deliverer import Deliverer
from core.service.ports.clock import MANUAL_EPOCH, Clock, ManualClock, RealClock
from core.service.runtime import Runtime

from .adapter import CONSOLE_CHAT, ConsoleAdapter

LINE = re.compile(r"^(?P<who>[^:>#\[\]]+?)\s*(?P<mode>[:>])\s?(?P<text>.*)$")
WAIT = re.compile(r"^:wait\s+(?P<amount>\d+(?:\.\d+)?)\s*(?P<unit>[smhd]?)$")
UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


class ScriptError(ValueError):
    """A line the console does not understand (the session goes on)."""


class ConsoleSession:
    def __init__(self, db_url: str, out: TextIO, locale: str = "en", clock: str = "manual",
                 seed: int | None = None) -> None:
        self.db_url = db_url
        self.locale = locale
        self.manual = clock == "manual"
        self.clock: Clock = ManualClock() if self.manual else RealClock()
        self.seed = seed
        self.adapter = ConsoleAdapter(out)
        self.runtime = Runtime(db_url, [self.adapter], clock=self.clock, seed=seed)
        self.store: AdapterStore = self.runtime.stores[self.adapter.platform]
        self.service: GameService | None = None
        self.deliverer: Deliverer | None = None

    async def start(self, before_connect: Callable[[], Awaitable[None]] | None = None) -> None:
        """Open the database and the group; `before_connect` runs before the console shows
        what it kept (its keyboards) and delivers what waits."""
        await self.runtime.open(loop=False)
        self.service, self.deliverer = self.runtime.service, self.runtime.deliverer
        if isinstance(self.clock, ManualClock):
            stored = await self.store.get("clock", "manual")
            self.clock.current = float(stored) if stored is not None else MANUAL_EPOCH
        await open_group(self.adapter.platform, str(CONSOLE_CHAT), self.locale)
        if before_connect is not None:
            await before_connect()
        await self.runtime.connect()  # the console adapter reads back its keyboards
        await self.pump()

    async def stop(self) -> None:
        await self.runtime.stop()

    async def restart(self) -> None:
        await self.stop()
        self.adapter.keyboards.clear()
        await self.start()

    # ------------------------------------------------------------------ input
    async def feed(self, line: str) -> None:
        """Apply one script line, then fire what is due and deliver what is waiting."""
        text = line.rstrip("\n")
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            return
        if stripped == ":restart":
            await self.restart()
            return
        wait = WAIT.match(stripped)
        if wait:
            if not isinstance(self.clock, ManualClock):
                raise ScriptError(":wait needs --clock manual")
            self.clock.advance(float(wait["amount"]) * UNITS[wait["unit"]])
            await self.pump()
            return
        match = LINE.match(text)
        if match is None:
            raise ScriptError(f"not understood: {stripped}")
        await self.say(match["who"].strip(), match["mode"] == ">", match["text"].strip())

    async def say(self, who: str, private: bool, text: str) -> None:
        assert self.service is not None
        update = await self._next_update_id()
        user = who
        button = None
        if text.startswith("[") and text.endswith("]"):
            chat = user if private else str(CONSOLE_CHAT)
            button = self.adapter.token_for(chat, text[1:-1]) or f"unknown:{text}"
        notice = await self.service.handle(Incoming(
            platform="console", update_id=update, user=UserRef(user), user_name=who,
            text="" if button else text, chat=None if private else CONSOLE_CHAT,
            command=None if button else Command.parse(text), button=button))
        if notice is not None and notice.text:  # (a typed vote's is empty)
            self.adapter.notice(who, notice.text)
        await self.pump()

    async def pump(self) -> None:
        """Fire due deadlines and deliver until nothing is left to do."""
        assert self.service is not None and self.deliverer is not None
        if isinstance(self.clock, ManualClock):
            await self.store.put("clock", "manual", self.clock.current)
        while True:
            fired = await self.service.fire_due_deadlines()
            sent = await self.deliverer.deliver_due()
            if not fired and not sent:
                return

    async def _next_update_id(self) -> str:
        count = int(await self.store.get("update", "last") or 0) + 1
        await self.store.put("update", "last", count)
        return f"console-{count}"
