"""Deadlines from pace presets: durations (`quick`) or clock times in the game's time zone
(`forum`), as each rule set declares them in its `PACE` table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

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


def time_left(seconds: float) -> str:
    """`4:05`, or `1:02:03` from an hour on: the same in every language."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def reminder_lead(window: float) -> float | None:
    """How long before a window's deadline its laggards are reminded: a quarter of the
    window, at most an hour; none for a window shorter than a minute."""
    if window < 60:
        return None
    return min(3600.0, window / 4)


def window_key(stage: str) -> str:
    """The pace table's key for a phase stage (the alchemists' night has no stage name)."""
    return stage or "night"
