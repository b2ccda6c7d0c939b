"""Driving the service from script lines (a file, stdin, or the demo's simulated players).

Input: `Ann: text` (Ann writes in the group), `Ann> text` (privately to the bot),
`Ann: [Label]` / `Ann> [Label]` (Ann presses that button on the newest group / private
keyboard offered to her), `:wait 90s` / `:wait 2h` (the manual clock moves on and due deadlines
fire), `:restart` (the service stops and starts again from the database), `#` comments.
"""

from __future__ import annotations

import re
from typing import TextIO

from core.service.clock import MANUAL_EPOCH, Clock, ManualClock, RealClock
from core.service.deliverer import Deliverer
from core.service.outbox import stored
from core.service.payloads import BallotPayload, KeyboardPayload, Payload
from core.service.ports import Ballot, Incoming, Keyboard, UserRef
from core.service.rendering import render
from core.service.service import GameService
from core.storage.db import close_db, open_db
from core.storage.models import Chat, KeyValue, Outbox

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
        self.service: GameService | None = None
        self.deliverer: Deliverer | None = None

    async def start(self) -> None:
        await open_db(self.db_url)
        if isinstance(self.clock, ManualClock):
            stored = await KeyValue.get_or_none(key="console_clock")
            self.clock.current = float(stored.value) if stored else MANUAL_EPOCH
        self.service = GameService(self.clock, self.seed)
        self.deliverer = Deliverer({"console": self.adapter}, self.clock)
        chat, created = await Chat.get_or_create(platform="console", ref=str(CONSOLE_CHAT),
                                                 defaults={"locale": self.locale})
        if not created and chat.locale != self.locale and self.locale != "en":
            chat.locale = self.locale
            await chat.save(update_fields=["locale"])
        await self._restore_keyboards()
        await self.pump()

    async def stop(self) -> None:
        await close_db()

    async def restart(self) -> None:
        await self.stop()
        self.adapter.keyboards.clear()
        await self.start()

    async def _restore_keyboards(self) -> None:
        """After a restart, the newest keyboard each chat was shown (from the outbox)."""
        seen: set[str] = set()
        for row in await Outbox.filter(platform="console", status="sent").order_by("-id") \
                .limit(500):
            if row.chat_ref in seen or not offered(stored(row)):
                continue
            seen.add(row.chat_ref)
            shown = await render(row)
            if isinstance(shown, Ballot):
                self.adapter.keyboards[row.chat_ref] = shown.options
            elif isinstance(shown, Keyboard):
                self.adapter.keyboards[row.chat_ref] = shown.buttons

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
            button=button))
        if notice is not None:
            self.adapter.notice(who, notice.text)
        await self.pump()

    async def pump(self) -> None:
        """Fire due deadlines and deliver until nothing is left to do."""
        assert self.service is not None and self.deliverer is not None
        if isinstance(self.clock, ManualClock):
            await KeyValue.update_or_create(key="console_clock",
                                            defaults={"value": self.clock.current})
        while True:
            fired = await self.service.fire_due_deadlines()
            sent = await self.deliverer.deliver_due()
            if not fired and not sent:
                return

    async def _next_update_id(self) -> str:
        row, _ = await KeyValue.get_or_create(key="console_update", defaults={"value": 0})
        row.value = int(row.value) + 1
        await row.save()
        return f"console-{row.value}"


def offered(payload: Payload) -> bool:
    """Whether a stored message offers buttons (a keyboard, or a ballot still open)."""
    return bool(payload.options if isinstance(payload, BallotPayload) else
                payload.buttons if isinstance(payload, KeyboardPayload) else ())
