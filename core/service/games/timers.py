"""The host's timers (`/timer`): stored in the game's settings per pace (`timers`: pace ->
window -> seconds or "HH:MM"), read when a window opens in place of the rule set's default.

A timer belongs to a pace: switching the pace keeps each pace's own timers, so a host who
tries both does not lose what he set."""

from __future__ import annotations

from typing import Any

from core.engine.rules import Rules
from core.engine.windows import Preset, WindowSpec
from core.spans import Clock


def pace_of(settings: dict[str, Any] | None) -> str:
    return (settings or {}).get("pace") or "quick"


def host_timers(settings: dict[str, Any] | None) -> dict[str, float | str]:
    """The host's own timers at the game's pace (window -> seconds or "HH:MM")."""
    settings = settings or {}
    return dict((settings.get("timers") or {}).get(pace_of(settings), {}))


def with_timer(settings: dict[str, Any], window: str, value: float | Clock) -> dict[str, Any]:
    """The settings with one more timer at the game's pace (a new dict: the row's JSON field
    is saved only when assigned)."""
    timers = dict(settings.get("timers") or {})
    pace = pace_of(settings)
    timers[pace] = {**timers.get(pace, {}), window: str(value) if isinstance(value, Clock)
                    else value}
    return {**settings, "timers": timers}


def window_preset(ruleset: Rules[Any], settings: dict[str, Any] | None,
                  window: str) -> Preset | None:
    """When a window closes, as a preset (see `due_at`): the host's timer, or the rule set's
    default for the pace; None for a window that has no deadline at this pace. A host's
    clock time is never closer than the window's shortest duration."""
    spec = ruleset.window(window)
    own = host_timers(settings).get(window)
    if own is None:
        return spec.default(pace_of(settings)) if spec is not None else \
            ruleset.pace.get(pace_of(settings), {}).get(window)
    if isinstance(own, str) and spec is not None:
        return (own, spec.bounds.shortest)
    return own


def shown_timers(ruleset: Rules[Any], settings: dict[str, Any] | None
                 ) -> list[tuple[WindowSpec, Preset]]:
    """Each window and what it lasts at the game's pace (the host's timer or the default)."""
    own = host_timers(settings)
    pace = pace_of(settings)
    return [(spec, own.get(spec.id, spec.default(pace))) for spec in ruleset.timed_windows()]
