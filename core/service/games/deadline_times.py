"""Deadlines from pace presets: durations (`quick`) or clock times in the game's time zone
(`forum`), as each rule set declares them in its `PACE` table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.engine.messages import Ref
from core.spoken import duration, until

PACES = ("quick", "forum")
DEFAULT_TZ = "Europe/Berlin"


@dataclass(frozen=True)
class GameDefaults:
    """What a new chat and a new game start with (the host's configuration)."""

    language: str = "en"
    pace: str = "quick"
    timezone: str = DEFAULT_TZ
    give_up_hours: float = 24.0  # a game whose group stays unreachable this long is cancelled
    public_url: str = ""  # where the archive pages are served; the end of a game links there
    # a player who left the game's chat leaves the game unless back within this many seconds
    leave_grace: float = 300.0


def valid_timezone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def due_at(preset: Any, now: float, tz: str) -> float:
    """When a window that opens at `now` closes.

    A preset is a number of seconds, a clock time "HH:MM" (the next such time in `tz`), or a
    pair (clock time, minimum seconds): the later of the two.
    """
    if isinstance(preset, (int, float)):
        return now + float(preset)
    if isinstance(preset, (tuple, list)):
        clock, minimum = preset
        return max(due_at(clock, now, tz), now + float(minimum))
    hour, minute = (int(part) for part in str(preset).split(":"))
    zone = ZoneInfo(tz)
    local = datetime.fromtimestamp(now, zone)
    target = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if target <= local:
        target = (target + timedelta(days=1)).replace(hour=hour, minute=minute)
    return target.timestamp()


def time_left(due: float | None, now: float, settings: dict[str, Any] | None) -> Ref:
    """What is left of a window, put into words at delivery: a duration at the quick pace,
    and the local date and clock time as well at the forum pace (its deadlines are days
    away); no deadline at all while paused or for a window the pace leaves open."""
    if due is None:
        return duration(None)
    settings = settings or {}
    if settings.get("pace") == "forum":
        return until(due - now, due, settings.get("tz") or DEFAULT_TZ)
    return duration(due - now)


def reminder_lead(window: float) -> float | None:
    """How long before a window's deadline its laggards are reminded: a quarter of the
    window, at most an hour; none for a window shorter than a minute."""
    if window < 60:
        return None
    return min(3600.0, window / 4)


def window_key(stage: str) -> str:
    """The pace table's key for a phase stage (the alchemists' night has no stage name)."""
    return stage or "night"


def status_left(row: Any, deadline: Any, now: float) -> Ref:
    """/status's time left: the open deadline's, or what a pause keeps for the resumption."""
    if deadline is not None:
        return time_left(deadline.due_at, now, row.settings)
    if row.paused_left is not None:
        return duration(row.paused_left)
    return duration(None)
