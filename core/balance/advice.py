"""The advice for one table: the win rate of each side at the assumed skill, the spread
across the skill presets, and up to three legal role sets closer to the rule set's target
(or, when none is within it, the closest one). Numbers come from the shipped table where it
has them precisely enough, else from games played now (`play`), within a deadline; without
`play` (an instant answer) only the table is asked."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from core.engine.balance_target import BalanceTarget
from core.engine.registry import load_ruleset
from core.interval import SHOWN

from .candidates import neighbours
from .estimate import Estimate, Play, estimate
from .presets import Assumed, Preset
from .setups import Change, Setup, difference
from .tables import Table
from .targets import distance, favoured, surely_within, within

ALTERNATIVES = 3  # the most role sets recommended
SCREEN = 0.07  # a candidate's half-width when screened (a first batch); the best are refined
#: the time of an on-demand answer given to the current setup, then to screening the
#: candidates, then to the other presets (cumulative fractions); refining the best takes the rest
SHARES = (0.45, 0.75, 0.85)
SPREAD = 0.04  # the other presets' half-width: a spread, not a verdict


@dataclass(frozen=True, slots=True)
class Alternative:
    """A legal role set near the host's: its estimate and the changes that make it."""

    setup: Setup
    estimate: Estimate
    changes: tuple[Change, ...]
    within: bool  # at both ends of its intervals (`targets.surely_within`)


@dataclass(frozen=True, slots=True)
class Advice:
    """`skill`: the skill assumed (a preset, or a chat's fitted skill); `spread`: the
    presets' estimates. `alternatives`: the role sets that reach the target, best first;
    empty when the table is already within it (`fair`), or when none is closer.
    `none_within`: no candidate reaches the target, and `alternatives` holds the closest one
    alone. A candidate without a number (`searched` False) ran out of time, or, without
    games (`played` False), is not in the table."""

    setup: Setup
    skill: Assumed
    estimate: Estimate
    spread: tuple[tuple[Preset, Estimate], ...]
    fair: bool
    leans: str
    alternatives: tuple[Alternative, ...]
    none_within: bool
    searched: bool = True  # every candidate has a number
    played: bool = True  # games could be played (else the table alone answered)


#: told what the advisor does now (a fraction of its work, 0 to 1)
Stage = Callable[[float], None]


def advise(setup: Setup, skill: Assumed, table: Table, play: Play | None = None, *,
           seconds: float = 30.0, seed: int = 0, stage: Stage | None = None) -> Advice | None:
    """The advice, or None when the current setup has no number (no game may be played and
    the table does not hold it, or the rule set declares no target). At a skill between the
    presets the table's cells are interpolated (`Table.at`), and games played now are played
    at that skill itself, not continued from a cell's."""
    target = load_ruleset(setup.ruleset).balance
    if target is None:
        return None
    started = time.monotonic()
    sides = target.sides()
    phase = [started + seconds]

    def measured(s: Setup, p: Assumed, wanted: float) -> Estimate | None:
        known = table.at(s.key(), p)
        if play is None or (known is not None and known.widest(sides) <= wanted):
            return known
        return estimate(s, p.r, sides, play, wanted=wanted, seed=seed, deadline=phase[0],
                        start=known if isinstance(p, Preset) else None)

    phase[0] = started + seconds * SHARES[0]
    current = measured(setup, skill, SHOWN)
    if current is None or not current.games:
        return None
    _told(stage, 0.4)
    fair = within(target, current)
    phase[0] = started + seconds * SHARES[1]
    screened, searched = ([], True) if fair else _screened(setup, target, skill, measured,
                                                           stage)
    phase[0] = started + seconds * SHARES[2]
    shown = ((skill, current),) if isinstance(skill, Preset) else ()
    others = tuple((p, e) for p in Preset if p is not skill
                   if (e := measured(setup, p, SPREAD)) is not None and e.games)
    spread = tuple(sorted((*shown, *others), key=lambda pe: pe[0].r))
    phase[0] = started + seconds
    closest = _refined(setup, target, current, skill, screened, measured)
    _told(stage, 1.0)
    reaching = tuple(a for a in closest if a.within)
    none_within = bool(closest) and not reaching
    return Advice(setup, skill, current, spread, fair, favoured(target, current),
                  closest[:1] if none_within else reaching, none_within, searched,
                  play is not None)


Measured = Callable[[Setup, Assumed, float], Estimate | None]


def _screened(setup: Setup, target: BalanceTarget, skill: Assumed, measured: Measured,
              stage: Stage | None) -> tuple[list[tuple[float, Setup]], bool]:
    """Every candidate's distance from the target at a screen's precision, and whether
    every one was tried."""
    candidates = neighbours(setup)
    screened: list[tuple[float, Setup]] = []
    for i, candidate in enumerate(candidates):
        found = measured(candidate, skill, SCREEN)
        if found is not None and found.games:
            screened.append((distance(target, found), candidate))
        _told(stage, 0.4 + 0.4 * (i + 1) / max(1, len(candidates)))
    return screened, len(screened) == len(candidates)


def _refined(setup: Setup, target: BalanceTarget, current: Estimate, skill: Assumed,
             screened: list[tuple[float, Setup]], measured: Measured
             ) -> tuple[Alternative, ...]:
    """The screened candidates closer to the target than the current setup, the best
    refined to a shown number's precision (as time allows), best first."""
    now = distance(target, current)
    best = sorted((d, c.key(), c) for d, c in screened if d < now)[:ALTERNATIVES]
    chosen = []
    for _, _, candidate in best:
        refined = measured(candidate, skill, SHOWN)
        if refined is not None and refined.games:
            chosen.append(Alternative(candidate, refined,
                                      difference(setup, candidate, target.filler),
                                      surely_within(target, refined)))
    return tuple(sorted(chosen, key=lambda a: (distance(target, a.estimate), a.setup.key())))


def _told(stage: Stage | None, done: float) -> None:
    if stage is not None:
        stage(done)
