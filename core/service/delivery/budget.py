"""Whether each platform's backlog fits the bot's budget there: the messages due now, and the
seconds the platform's overall rate needs to carry them. A backlog that needs more than
OVER_SECONDS is over budget (more games than one token carries): the log says so once, and
`/healthz` shows it, instead of the bot silently falling behind. It counts as back within
budget below half of that (no flapping at the edge)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from core.storage.models import Outbox
from core.storage.states import OutboxState

from ..ports.adapter import Adapter

log = logging.getLogger(__name__)

OVER_SECONDS = 20.0  # a backlog the overall budget carries in longer than this: over budget
CHECK_EVERY = 2.0  # seconds between two counts of the backlog


@dataclass(frozen=True, slots=True)
class Strain:
    """One platform's backlog against its budget."""

    waiting: int  # messages due now, not yet sent
    drain: float  # seconds the overall rate needs for them (0: no overall limit)
    over: bool  # over budget

    def report(self) -> dict[str, float | int | bool]:
        return {"waiting": self.waiting, "drain_seconds": round(self.drain, 1),
                "over_budget": self.over}


class Budget:
    """The strain of every platform, counted at most every CHECK_EVERY seconds."""

    def __init__(self) -> None:
        self.strain: dict[str, Strain] = {}
        self.checked_at: float | None = None

    async def check(self, adapters: dict[str, Adapter], now: float) -> None:
        if self.checked_at is not None and 0 <= now - self.checked_at < CHECK_EVERY:
            return
        self.checked_at = now
        for name, adapter in adapters.items():
            rate = adapter.limits.overall
            waiting = await Outbox.filter(status=OutboxState.PENDING, next_try_at__lte=now,
                                          platform=name).count()
            drain = waiting / rate if rate else 0.0
            was = self.strain.get(name)
            over = drain > (OVER_SECONDS / 2 if was is not None and was.over else OVER_SECONDS)
            if over and (was is None or not was.over):
                log.warning("%s: over the bot's budget: %s messages wait, %.0f s of its %g "
                            "messages a second; players wait for their messages (more games "
                            "than one token carries)", name, waiting, drain, rate)
            elif was is not None and was.over and not over:
                log.warning("%s: within the bot's budget again (%s messages wait)", name,
                            waiting)
            self.strain[name] = Strain(waiting, drain, over)

    def over(self) -> list[str]:
        """The platforms over budget now."""
        return sorted(name for name, strain in self.strain.items() if strain.over)
