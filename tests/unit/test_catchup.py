"""Overdue deadlines wait for the receivers to catch up, but never longer than the cap, and
only where a receiver can tell (a Telegram poller; not a webhook)."""

from __future__ import annotations

from core.service import CatchUp
from core.service.ports.catchup import MAX_HOLD
from core.service.ports.clock import ManualClock


def test_deadlines_wait_until_every_poller_caught_up():
    clock = ManualClock()
    catchup = CatchUp(clock)
    catchup.register("telegram")
    catchup.hold()
    assert catchup.holding() and catchup.waiting == ["telegram"]
    assert catchup.stale_before == clock.now()  # reminders due before now are skipped
    clock.advance(2)
    catchup.caught_up("telegram")
    assert not catchup.holding() and catchup.waiting == []


def test_the_hold_is_capped():
    clock = ManualClock()
    catchup = CatchUp(clock)
    catchup.register("telegram")
    catchup.hold()
    clock.advance(MAX_HOLD - 1)
    assert catchup.holding()
    clock.advance(1)
    assert not catchup.holding() and catchup.waiting == []


def test_without_a_receiver_that_can_tell_nothing_waits():
    clock = ManualClock()
    catchup = CatchUp(clock)  # webhook mode, Matrix: nobody registered
    catchup.hold()
    assert not catchup.holding()
    assert catchup.stale_before == clock.now()
