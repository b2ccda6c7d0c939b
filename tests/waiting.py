"""Waiting on a machine of unknown load: a wait that gives up when nothing moves, not at a
fixed hour.

A loaded machine (CI beside other work, a developer's build) does every step of a test
slower, not fewer of them: a fixed deadline that holds on an idle machine fails there
although the bot never stopped making progress. `Patience` gives up after `quiet` seconds in
which the state it is shown did not change, and after `limit` seconds in all, so a bot that
keeps busy forever (a loop) still fails."""

from __future__ import annotations

import time


class Patience:
    def __init__(self, quiet: float, limit: float | None = None) -> None:
        started = time.monotonic()
        self.quiet = quiet
        self.limit = limit if limit is not None else 10 * quiet
        self.end = started + self.limit
        self.until = min(started + quiet, self.end)
        self.mark: object = None

    def moved(self, mark: object) -> None:
        """The state now (anything comparable); a change is progress: `quiet` more seconds."""
        if mark != self.mark:
            self.mark = mark
            self.until = min(time.monotonic() + self.quiet, self.end)

    def waiting(self) -> bool:
        """Whether to go on waiting."""
        return time.monotonic() < self.until

    def why(self) -> str:
        """Why it gave up, for the failure message."""
        if time.monotonic() >= self.end:
            return f"still busy after {self.limit:.0f} s"
        return f"nothing moved for {self.quiet:.0f} s"
