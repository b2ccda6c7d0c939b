"""Clocks: the service reads time only through one of these (the engine never does)."""

from __future__ import annotations

import time
from typing import Protocol

MANUAL_EPOCH = 1_767_268_800.0  # 2026-01-01 12:00 UTC: where a fresh manual clock starts


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class RealClock:
    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told to (`:wait` in the console, tests)."""

    def __init__(self, start: float = MANUAL_EPOCH) -> None:
        self.current = start

    def now(self) -> float:
        return self.current

    def advance(self, seconds: float) -> None:
        self.current += seconds
