"""Whether each platform's backlog fits the bot's budget there: the messages due now, the
seconds the platform's overall rate needs to carry them, and how long the oldest of them (never
tried yet) has waited. A backlog that needs more than OVER_SECONDS, or whose oldest message has
waited more than LATE_SECONDS, is over budget (more games than one token carries): the log says
so once, and `/healthz` shows it, instead of the bot silently falling behind. The drain alone
missed it: at 40 games 400 messages waited, 13 s at 30 a second, while most windows' prompts
came late, because the groups' minutes and the chats' seconds hold rows the overall rate
could carry. It counts as back within budget below half of both (no flapping at the edge). A
platform that is down (failing, or its adapter cannot reach it) is an outage, not a budget."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from core.storage.models import Outbox
from core.storage.states import OutboxState

from ..ports.adapter import Adapter

log = logging.getLogger(__name__)

OVER_SECONDS = 20.0  # a backlog the overall budget carries in longer than this: over budget
LATE_SECONDS = 15.0  # a message due this long and never tried yet: over budget...
LATE_WAITING = 30  # ...when at least this many wait (a burst in one group is its own minute)
CHECK_EVERY = 2.0  # seconds between two counts of the backlog


@dataclass(frozen=True, slots=True)
class Strain:
    """One platform's backlog against its budget."""

    waiting: int  # messages due now, not yet sent
    drain: float  # seconds the overall rate needs for them (0: no overall limit)
    oldest: float  # seconds the oldest of them, never tried yet, has been due
    over: bool  # over budget

    def report(self) -> dict[str, float | int | bool]:
        return {"waiting": self.waiting, "drain_seconds": round(self.drain, 1),
                "oldest_seconds": round(self.oldest, 1), "over_budget": self.over}


class Budget:
    """The strain of every platform, counted at most every CHECK_EVERY seconds."""

    def __init__(self) -> None:
        self.strain: dict[str, Strain] = {}
        self.checked_at: float | None = None
        self.marks: dict[str, tuple[int, float]] = {}  # the last row waiting at a count, its time

    async def check(self, adapters: dict[str, Adapter], now: float,
                    down: frozenset[str] = frozenset()) -> None:
        """Count again (at most every CHECK_EVERY seconds); the platforms `down` are in an
        outage and keep what they showed."""
        if self.checked_at is not None and 0 <= now - self.checked_at < CHECK_EVERY:
            return
        self.checked_at = now
        for name, adapter in adapters.items():
            if name in down:
                continue
            rate = adapter.limits.overall
            due = Outbox.filter(status=OutboxState.PENDING, next_try_at__lte=now, platform=name)
            waiting = await due.count()
            fresh = due.filter(attempts=0)
            first = await fresh.order_by("id").first()
            last = await fresh.order_by("-id").first() if first is not None else None
            oldest = self._waited(name, None if first is None or last is None
                                  else (first.id, last.id), now)
            drain = waiting / rate if rate else 0.0
            was = self.strain.get(name)
            ease = 0.5 if was is not None and was.over else 1.0
            over = drain > OVER_SECONDS * ease or (
                oldest > LATE_SECONDS * ease and waiting >= LATE_WAITING * ease)
            if over and (was is None or not was.over):
                log.warning("%s: over the bot's budget: %s messages wait, the oldest %.0f s, "
                            "%.0f s of its %g messages a second; players wait for their "
                            "messages (more games than one token carries)", name, waiting,
                            oldest, drain, rate)
            elif was is not None and was.over and not over:
                log.warning("%s: within the bot's budget again (%s messages wait)", name,
                            waiting)
            self.strain[name] = Strain(waiting, drain, oldest, over)

    def _waited(self, platform: str, waiting: tuple[int, int] | None, now: float) -> float:
        """Seconds the oldest row waiting (ids `waiting`: its first and last) has waited at
        least, by the service's clock (a row's own times are the database's, or 0): the rows
        up to the last one of an earlier count were all waiting then."""
        if waiting is None:
            self.marks.pop(platform, None)
            return 0.0
        first, last = waiting
        mark = self.marks.get(platform)
        if mark is None or first > mark[0]:  # everything counted before has gone
            self.marks[platform] = mark = (last, now)
        return now - mark[1]

    def over(self) -> list[str]:
        """The platforms over budget now."""
        return sorted(name for name, strain in self.strain.items() if strain.over)
