"""A table of fake Telegram users around the real bot: the runtime with the Telegram adapter
(python-telegram-bot over HTTP) against the fake Bot API, and a driver that plays whole games
the way people would, through buttons, deep links and commands."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlparse

from adapters.telegram.adapter import TelegramAdapter, TelegramSettings
from core.service import RateLimits
from core.service.games.deadline_times import GameDefaults
from core.service.runtime import Runtime
from core.storage.models import GameRecord, Outbox
from tests.play import play_until_over

from .fake_botapi import FakeBotAPI, FakeGroup, FakeUser, MessageView, assert_no_violations

NAMES = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")


class OffsetClock:
    """Real time that a test may jump forward (to let a deadline come due) while rate
    limits and backoff keep working in real seconds."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass
class Table:
    api: FakeBotAPI
    runtime: Runtime
    clock: OffsetClock
    group: FakeGroup
    users: dict[str, FakeUser]
    pressed: set[tuple[int, int, str]] = field(default_factory=set)

    @property
    def host(self) -> FakeUser:
        return next(iter(self.users.values()))

    def group_messages(self) -> list[MessageView]:
        return self.api.messages(self.group)

    async def settle(self, timeout: float = 30.0) -> None:
        """Wait until the bot has read everything and delivered its whole outbox (messages
        held back by a flood limit included)."""
        deadline = time.monotonic() + timeout
        calm = 0
        while time.monotonic() < deadline:
            await self.api.settle(quiet=0.05, timeout=timeout)
            busy = not all(getattr(a, "idle", True) for a in self.runtime.adapters) or \
                await Outbox.filter(status__in=["pending", "sending"]).exists()
            calm = 0 if busy else calm + 1
            if calm >= 2:  # twice in a row: nothing was between two looks
                return
            await asyncio.sleep(0.02)
        raise TimeoutError("the outbox never emptied")

    async def let_time_pass(self, seconds: float) -> None:
        """Jump the clock; what came due fires now (as the runtime's loop would on its next
        round), then everything it caused is delivered."""
        self.clock.advance(seconds)
        assert self.runtime.service is not None
        await self.runtime.service.fire_due_deadlines()
        self.runtime.wake.set()
        await self.settle()

    async def stop(self) -> None:
        """Stop the bot; then fail if it sent any request Telegram would refuse or misread."""
        await self.runtime.stop()
        assert_no_violations(self.api)

    async def game_row(self) -> GameRecord | None:
        return await GameRecord.all().order_by("-id").first()


async def open_table(api: FakeBotAPI, db_url: str, count: int,
                     limits: RateLimits | None = None, seed: int = 5,
                     languages: dict[str, str] | None = None, *, privacy: bool = False,
                     bot_admin: bool = True, supergroup: bool = True,
                     forum: bool = False, defaults: GameDefaults | None = None) -> Table:
    """The bot in a group of `count` players. The defaults are a friendly world, not
    Telegram's (privacy mode on, a basic group, the bot a plain member): privacy mode off, a
    supergroup, the bot an administrator; tests of the harsher world ask for it. `defaults`:
    the service's (a shorter grace time for a player who left the group, say)."""
    api.privacy = privacy
    users = {name: api.user(name, language_code=(languages or {}).get(name, "en"))
             for name in NAMES[:count]}
    group = api.group("Ponyville Game Night", members=list(users.values()),
                      bot_admin=bot_admin, supergroup=supergroup, forum=forum)
    clock = OffsetClock()
    adapter = TelegramAdapter(TelegramSettings(token=api.token, base_url=api.base_url,
                                               poll_timeout=1, limits=limits or RateLimits()))
    runtime = Runtime(db_url, [adapter], clock=clock, seed=seed, tick=0.05, defaults=defaults)
    await runtime.start()
    return Table(api, runtime, clock, group, users)


def start_payload(message: MessageView, label: str | None = None) -> str:
    """The deep link behind a URL button (the first one, or the one with this label):
    t.me/<bot>?start=<payload>."""
    links = [b for row in message.buttons for b in row if "url" in b]
    button = links[0] if links and label is None else message.button(text=label)
    assert button is not None and "url" in button, f"no link button {label!r}"
    return parse_qs(urlparse(button["url"]).query)["start"][0]


async def sign_up(table: Table, ruleset: str, *commands: str) -> None:
    """The host opens sign-up; everybody joins through the Join deep link; the host applies
    the settings and starts the game."""
    host = table.host
    await host.send(f"/newgame {ruleset}", chat=table.group)
    await table.settle()
    signup = table.group_messages()[-1]
    payload = start_payload(signup)  # Join comes first, whatever the group's language
    for user in list(table.users.values())[1:]:
        await user.start(payload)
    await host.start()  # the host was seated by /newgame; he opens his private chat too
    await table.settle()
    for command in commands:
        await host.send(command, chat=table.group)
    await host.send("/startgame", chat=table.group)
    await table.settle()


async def confirm(table: Table, user: FakeUser, label: str = "End the game") -> None:
    """Press the button of the newest confirmation in the user's private chat (/endgame and
    /flee ask there first)."""
    asked = next(m for m in reversed(table.api.sent_to(user))
                 if m.button(text=label) is not None)
    await user.press(asked, text=label)
    await table.settle()


async def living(table: Table) -> dict[str, str]:
    """Display name → pid of the players still in the game (read from the service: the
    driver plays like a person who has followed the group's announcements)."""
    row = await table.game_row()
    assert row is not None and table.runtime.service is not None
    game = await table.runtime.service.games.load(row)
    return {p.name: p.pid for p in game.state.players.values() if p.alive}


async def play_round(table: Table, rng: random.Random) -> bool:
    """Everybody uses the buttons they were offered and have not used: a ballot in the group,
    a keyboard in their private chat. Returns whether anybody pressed anything."""
    alive = await living(table)
    acted = False
    ballots = [m for m in table.group_messages() if m.buttons and any(
        "callback_data" in b for row in m.buttons for b in row)]
    for name, user in table.users.items():
        if name not in alive:
            continue
        chats: list[MessageView] = []
        if ballots:
            chats.append(ballots[-1])
        private = [m for m in table.api.sent_to(user) if m.buttons]
        if private:
            chats.append(private[-1])
        for message in chats:
            key = (message.chat_id, message.message_id, name)
            if key in table.pressed:
                continue
            choices = [b for row in message.buttons for b in row if "callback_data" in b
                       and b["text"] not in ("Withdraw my vote", "Pass", "My vote is early")
                       and b["text"] != name]
            if not choices:
                continue
            table.pressed.add(key)
            await user.press(message, rng.choice(choices)["callback_data"])
            acted = True
    return acted


async def play_to_the_end(table: Table, seed: int, max_rounds: int = 120) -> GameRecord:
    """Play until the game is over, pressing what is offered (see tests/play.py)."""
    return await play_until_over(table, play_round, random.Random(seed), max_rounds)
