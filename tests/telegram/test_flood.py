"""Flooding one game with votes and button presses: the outbox keeps within Telegram's flood
limits (or, when it is told to overrun them, obeys every 429's retry_after), every message
arrives, and the ballot's tally ends exactly as the last votes say.

Time runs twenty times faster for both sides of the flood limits (the fake's flood control and
the bot's delivery: its pacing, its waits after a 429), so a minute of Telegram's group budget
passes in three seconds. The game's own deadlines keep wall time: at twenty times the speed the
mayor's election (three minutes) closed after nine seconds, before a loaded machine had cast
all the votes, and the game then ran on by itself while the test waited for a quiet outbox."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from adapters.telegram.adapter import LIMITS
from core.service import RateLimits
from core.storage.models import Outbox

from .fake_botapi import FakeBotAPI, FloodRules
from .harness import open_table, sign_up

SPEED = 20.0


class FastClock:
    """Wall time, SPEED times faster (an offset keeps it near the real date)."""

    def __init__(self) -> None:
        self.origin = time.time()

    def now(self) -> float:
        return self.origin + (time.time() - self.origin) * SPEED

    def monotonic(self) -> float:
        return time.monotonic() * SPEED


@pytest.mark.parametrize("pacing", ["telegram-limits", "overrun"])
async def test_a_flood_of_votes_is_delivered_in_full_and_the_tally_ends_right(tmp_path, pacing):
    clock = FastClock()
    # overrun: the bot believes in no limits, and this Telegram is much stricter than the real
    # one (three messages a group a minute: overrun even by a bot slowed by a loaded machine)
    rules = FloodRules() if pacing == "telegram-limits" else FloodRules(
        per_chat_per_second=0.5, per_group_per_minute=3)
    api = FakeBotAPI(flood=rules, clock=clock.monotonic)
    await api.start()
    limits = LIMITS if pacing == "telegram-limits" else RateLimits()
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 10, limits=limits)
    assert table.runtime.deliverer is not None  # (the service keeps the table's wall clock)
    table.runtime.clock = clock
    table.runtime.deliverer.clock = clock
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        ballot = next(m for m in reversed(table.group_messages()) if m.button(text="Ann"))
        rng = random.Random(3)
        voters = [name for name in table.users if name != "Ann"]  # Ann abstains: it stays open
        last: dict[str, str] = {}
        for _ in range(6):
            for name in voters:
                target = rng.choice(list(table.users))
                if rng.random() < 0.3:
                    await table.users[name].send(f"/vote {target}", chat=table.group)
                else:
                    await table.users[name].press(ballot, ballot.button(text=target)
                                                  ["callback_data"])
                last[name] = target
                await asyncio.sleep(0.005)  # people press over time: the bot edits meanwhile
        await table.settle()

        expected: dict[str, int] = {}
        for target in last.values():
            expected[target] = expected.get(target, 0) + 1
        final = api.messages(table.group)
        shown = next(m for m in final if m.message_id == ballot.message_id).text
        tally = shown.split("Votes so far: ")[1]
        for target, count in expected.items():
            assert f"{target} ({count})" in tally, (expected, shown)
        assert tally.count("(") == len(expected)

        assert not await Outbox.filter(status__in=["pending", "sending", "failed",
                                                   "unknown"]).exists()
        assert api.unknown_methods == [] and api.internal_errors == []
        rejected = api.flood_rejections
        if pacing == "telegram-limits":
            assert rejected == []  # paced within the limits: Telegram never had to refuse
        else:
            assert rejected  # the fake refused some, and the bot waited and sent them anyway
        edits = len(api.calls_to("editMessageText"))
        assert edits < 6 * len(voters)  # coalesced: not one edit per vote
    finally:
        await table.stop()
        await api.stop()
