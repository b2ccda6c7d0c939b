"""A pony game played against a bot in another process (here: a container) through the fake
Bot API only, as people would: the host opens sign-up, the others join through the deep link,
everybody presses what they are offered. The game's progress is read from the bot's database
(its log), since the test has no handle on the bot's runtime."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from tests.telegram.fake_botapi import FakeBotAPI, FakeGroup, FakeUser, MessageView
from tests.telegram.harness import NAMES, start_payload

SKIPPED = ("Withdraw my vote", "Pass", "My vote is early")
#: Seconds without a new phase, with nothing left to press, after which the test stops waiting
#: for the window's own deadline (minutes in the quick pace) and makes it due (see `stalled`).
STALL = 20.0


def choices(message: MessageView, voter: str) -> list[dict[str, Any]]:
    return [b for row in message.buttons for b in row if "callback_data" in b
            and b["text"] not in SKIPPED and b["text"] != voter]


@dataclass
class Table:
    api: FakeBotAPI
    database: str
    users: dict[str, FakeUser] = field(default_factory=dict)
    group: FakeGroup | None = None
    pressed: set[tuple[int, int, tuple[str, ...], str]] = field(default_factory=set)
    #: each phase the game went through: (seconds since /startgame, phase, how it closed)
    phases: list[list[Any]] = field(default_factory=list)
    seen: dict[str, float] = field(default_factory=dict)  # phase → when the test first saw it
    began: float = 0.0

    async def sign_up(self, players: int) -> None:
        """Privacy mode off, a supergroup with the bot as admin; no random lovers, so nobody
        dies of a broken heart on the way."""
        self.api.privacy = False
        self.users = {name: self.api.user(name) for name in NAMES[:players]}
        group = self.group = self.api.group("Ponyville Game Night", supergroup=True,
                                            members=list(self.users.values()), bot_admin=True)
        host, *others = self.users.values()
        await host.send("/newgame changelings", chat=group)
        signup = await self.api.wait_for(
            lambda: next(iter(m for m in self.api.messages(group) if m.buttons), None),
            timeout=30)
        payload = start_payload(signup)
        for user in others:
            await user.start(payload)
        await host.start()
        await self.api.wait_for(lambda: all(self.api.sent_to(u) for u in self.users.values()),
                                timeout=30, what="every player seated")
        await host.send("/option random_lovers false", chat=group)
        await host.send("/startgame", chat=group)
        self.began = time.monotonic()

    async def log(self) -> list[list[Any]]:
        """The game's events so far, in order (`[kind, fields]` each)."""
        conn = await asyncpg.connect(self.database)
        try:
            rows = await conn.fetch("SELECT events FROM log_entry ORDER BY game_id, seq")
        finally:
            await conn.close()
        return [event for row in rows for event in json.loads(row["events"])]

    async def follow(self) -> str:
        """Note each new phase and how the one before it closed; returns the current one."""
        events = await self.log()
        seen = [e for e in events if e[0] in ("phase", "closed", "closed_early")]
        self.phases = []
        for kind, fields in seen:
            if kind == "phase":
                self.phases.append([None, fields["phase"], "open"])
            elif self.phases:
                self.phases[-1][2] = "early" if kind == "closed_early" else "deadline"
        for entry in self.phases:
            entry[0] = self.seen.setdefault(entry[1], time.monotonic() - self.began)
        return self.phases[-1][1] if self.phases else "sign-up"

    async def play_round(self) -> bool:
        """Everybody presses what the group and his own private chat offer, once per keyboard
        (an edited message with new buttons is a new keyboard: a two-step choice): the host
        votes for the next player, everybody else for the host, so the election has a clear
        winner; any other keyboard gets its first choice. Returns whether anybody pressed."""
        assert self.group is not None
        acted = False
        ballots = [m for m in self.api.messages(self.group) if choices(m, "")][-1:]
        host = next(iter(self.users))
        for name, user in self.users.items():
            private = [m for m in self.api.sent_to(user) if choices(m, name)]
            for message in ballots + private:
                options = choices(message, name)
                key = (message.chat_id, message.message_id,
                       tuple(b["callback_data"] for b in options), name)
                if key in self.pressed:
                    continue
                self.pressed.add(key)
                pick = next((b for b in options if b["text"] == host), options[0])
                await user.press(message, pick["callback_data"])
                acted = True
        return acted

    async def play_to(self, phase: str, timeout: float) -> None:
        """Play until the game's phase starts with `phase` ("day 2")."""
        ends = time.monotonic() + timeout
        quiet_since = time.monotonic()
        current = await self.follow()
        while not current.startswith(phase):
            if time.monotonic() > ends:
                raise TimeoutError(f"no {phase} within {timeout} s: {self.progress()}\n"
                                   f"{self.api.describe()}")
            await self.api.settle(quiet=0.3, timeout=30)
            if await self.play_round():
                quiet_since = time.monotonic()
            await asyncio.sleep(0.2)
            now = await self.follow()
            if now != current:
                current, quiet_since = now, time.monotonic()
            elif time.monotonic() - quiet_since > STALL:
                raise TimeoutError(f"{current} waits for something nobody was offered: "
                                   f"{self.progress()}\n{self.api.describe()}")

    def progress(self) -> str:
        return ", ".join(f"{phase} at {at:.1f} s (closed: {how})"
                         for at, phase, how in self.phases)
