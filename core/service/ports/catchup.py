"""Holding overdue deadlines until the updates queued on the platforms are applied.

After a restart, or when the database answers again after an outage, the platforms hold the
updates the players sent meanwhile: votes and presses made before a deadline. Firing that
deadline first would refuse them as late. So the runtime holds every deadline until each
receiver that can tell (Telegram's long polling: a getUpdates batch shorter than a full one
came back and was applied; Matrix: the first sync since the stored token was applied)
reports it caught up, for at most `MAX_HOLD` seconds (a receiver
that cannot get through must not stop the games). A webhook cannot tell when the platform's
queue is empty, so webhook mode is not held.

A reminder ("your vote is missing") that came due before the hold began is skipped: it
would remind people whose votes were waiting in the queue, with "0:00 left".
"""

from __future__ import annotations

import logging

from .clock import Clock

log = logging.getLogger(__name__)
MAX_HOLD = 60.0  # seconds at most that deadlines wait for a receiver to catch up


class CatchUp:
    def __init__(self, clock: Clock, max_hold: float = MAX_HOLD) -> None:
        self.clock = clock
        self.max_hold = max_hold
        self.behind: dict[str, bool] = {}  # receiver → still behind the platform's queue
        self.since: float | None = None  # when the current hold began
        self.stale_before = 0.0  # reminders due before this are skipped

    def register(self, name: str) -> None:
        """A receiver that will say when it has caught up (a Telegram poller)."""
        self.behind[name] = self.since is not None

    def hold(self) -> None:
        """A (re)start or the database's return: hold deadlines until every receiver caught
        up with what the platforms queued meanwhile."""
        now = self.clock.now()
        self.stale_before = now
        if not self.behind:
            return
        self.since = now
        for name in self.behind:
            self.behind[name] = True

    def is_behind(self, name: str) -> bool:
        return self.behind.get(name, False)

    def caught_up(self, name: str) -> None:
        if not self.behind.get(name):
            return
        self.behind[name] = False
        if self.since is not None and not any(self.behind.values()):
            log.info("caught up with the queued updates after %.1f s",
                     self.clock.now() - self.since)
            self.since = None

    def holding(self) -> bool:
        """Whether deadlines wait now (never longer than `max_hold`)."""
        if self.since is None:
            return False
        if self.clock.now() - self.since >= self.max_hold:
            log.warning("deadlines no longer wait for %s to catch up (%.0f s)",
                        ", ".join(n for n, b in self.behind.items() if b), self.max_hold)
            self.since = None
            return False
        return True

    @property
    def waiting(self) -> list[str]:
        """The receivers deadlines are waiting for now."""
        return [n for n, b in self.behind.items() if b] if self.since is not None else []
