"""A rule set's timed windows as data: which windows a host may time, what they last by
default at each pace, and the bounds that keep a game playable.

Why data: `/timer`, `/status`, the settings table in docs/settings.md (and a settings menu later)
are all generated from the same declaration, so a rule set author writes each window once.
A window is a phase stage (the engine's `Stage`, or "night" for a night of a single stage,
see `core.service.games.deadline_times.window_key`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# A deadline preset: seconds, a clock time "HH:MM" in the game's time zone, or (clock time,
# minimum seconds): the later of the two
Preset = float | str | tuple[str, float]

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0


@dataclass(frozen=True)
class Bounds:
    """How short and how long a host may make a window: shorter than half a minute nobody
    can read the prompt and answer; longer than a week a game stalls. A clock time is
    always the next such time, and never closer than `shortest`."""

    shortest: float = 30.0
    longest: float = 7 * DAY

    def holds(self, seconds: float) -> bool:
        return self.shortest <= seconds <= self.longest


@dataclass(frozen=True)
class WindowSpec:
    """One timed window of a rule set.

    `id` is what the host types (`/timer vote 10m`) and the stage it times; `label` its
    name (a msgid of the rule set's catalog, shown in `/timer` and `/status`; the host may
    type it too, in any language); `quick` its default duration at the quick pace;
    `forum` its default at the forum pace (a clock time, or a clock time with a minimum)."""

    id: str
    label: str
    quick: float
    forum: Preset
    bounds: Bounds = Bounds()

    def default(self, pace: str) -> Preset:
        return self.forum if pace == "forum" else self.quick


def pace_table(windows: tuple[WindowSpec, ...]) -> dict[str, dict[str, Any]]:
    """The windows as the older per-pace table (pace -> window -> preset), for rule sets and
    tools that read `Ruleset.pace`."""
    return {"quick": {w.id: w.quick for w in windows},
            "forum": {w.id: w.forum for w in windows}}


def from_pace_table(pace: dict[str, dict[str, Any]]) -> tuple[WindowSpec, ...]:
    """The windows of a rule set that only declares the older `pace` table (its window ids
    are their own labels: such a rule set has no names for them)."""
    quick, forum = pace.get("quick", {}), pace.get("forum", {})
    return tuple(WindowSpec(w, w, float(quick.get(w, 0.0)), forum.get(w, quick.get(w, 0.0)))
                 for w in dict.fromkeys([*quick, *forum]))
