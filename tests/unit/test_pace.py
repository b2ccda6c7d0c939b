"""Deadlines from pace presets: durations, and clock times in the game's time zone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from core.service.games.deadline_times import due_at, valid_timezone

BERLIN = ZoneInfo("Europe/Berlin")


def at(*args: int) -> float:
    return datetime(*args, tzinfo=BERLIN).timestamp()


def test_a_duration_counts_from_now():
    assert due_at(240, 1000.0, "Europe/Berlin") == 1240.0


@pytest.mark.parametrize("now,expected", [
    (at(2026, 11, 30, 10, 0), at(2026, 11, 30, 19, 30)),   # later today
    (at(2026, 11, 30, 19, 30), at(2026, 12, 1, 19, 30)),   # exactly then: tomorrow
    (at(2026, 11, 30, 23, 0), at(2026, 12, 1, 19, 30)),    # after it: tomorrow
    (at(2026, 3, 28, 20, 0), at(2026, 3, 29, 19, 30)),     # across the switch to summer time
])
def test_a_clock_time_is_the_next_such_time_in_the_games_zone(now, expected):
    assert due_at("19:30", now, "Europe/Berlin") == expected


def test_a_clock_time_with_a_minimum_gives_at_least_the_minimum():
    now = at(2026, 11, 30, 19, 55)
    assert due_at(("20:00", 600), now, "Europe/Berlin") == now + 600
    early = at(2026, 11, 30, 18, 0)
    assert due_at(("20:00", 600), early, "Europe/Berlin") == at(2026, 11, 30, 20, 0)


def test_time_zones_are_checked():
    assert valid_timezone("Europe/Moscow")
    assert not valid_timezone("Mars/Olympus")
