"""A window waits for its messages to go out (issue 32): on a platform whose overall rate
needs minutes for a game's start (Matrix at Synapse's default 0.2 messages a second), the
first window's deadline is later by that time, so its last player has the whole window too;
a platform that carries them at once (the console, Telegram's 30 a second for one table)
opens it on time."""

from __future__ import annotations

import io

from adapters.console.demo import NAMES
from adapters.console.session import ConsoleSession
from adapters.matrix.settings import LIMITS
from core.service import RateLimits
from core.storage.models import Deadline
from core.storage.states import DeadlineKind, DeadlineState


async def first_window(db_url: str, limits: RateLimits | None) -> float:
    """Seconds from the start of a 20-player alchemists game to its first deadline."""
    session = ConsoleSession(db_url, io.StringIO(), "en", "manual", 5)
    if limits is not None:
        session.adapter.limits = limits  # (read when the service is made, at start)
    await session.start()
    try:
        names = NAMES[:20]
        await session.feed(f"{names[0]}: /newgame alchemists")
        for name in names[1:]:
            await session.feed(f"{name}: /join")
        await session.feed(":wait 10m")  # the sign-up's messages go out (a burst's worth
        # waits: the console delivers at the moment the clock moves to, at the rate's pace)
        started = session.clock.now()
        await session.feed(f"{names[0]}: /startgame")
        close = await Deadline.filter(kind=DeadlineKind.CLOSE,
                                      state=DeadlineState.PENDING).get()
        return close.due_at - started
    finally:
        await session.stop()


async def test_the_first_night_waits_for_a_slow_platforms_start(db_url):
    lag = await first_window(db_url, LIMITS) - 90
    # the start's 20 cards and 11 prompts beside the group's (and 8 rows the sign-up left),
    # 8 of them in the burst, at 0.2 a second: (39 - 8) / 0.2
    assert lag == 155


async def test_a_platform_that_carries_the_start_at_once_opens_on_time(db_url):
    assert await first_window(db_url, None) == 90
