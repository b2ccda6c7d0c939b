"""Win rates of one setup at one skill, from simulated games, with sequential stopping: play
a batch, look at the intervals, and play on only while a side the target aims at is still
wider than wanted, within a cap of games and of time.

(Stopping on the interval's width, never on its position, keeps the interval honest: the
width at a given count hardly depends on the rate near 50 %, so the stopping rule does not
pick favourable outcomes.)"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from core.interval import SHOWN, games_needed, half_width, wilson

from .setups import Setup

FIRST_BATCH = 200  # enough to aim the next batch; a table's cheapest cell
MOST_GAMES = 20_000  # a cap for the cell whose sides all sit near 50 %
CHUNK = 500  # the most games played between two looks at the clock and the progress
PROBE = 50  # the first batch against a deadline: it measures how long a game takes


@dataclass(frozen=True, slots=True)
class Share:
    """One side's wins in an estimate and its 95 % interval."""

    side: str
    won: int
    games: int

    @property
    def rate(self) -> float:
        return self.won / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.won, self.games)

    @property
    def half_width(self) -> float:
        return half_width(self.won, self.games)


@dataclass(frozen=True, slots=True)
class Estimate:
    """What simulated games of one setup at one skill said: the wins per side (co-winners
    each counted), the games and the mean length in days."""

    games: int
    wins: Mapping[str, int] = field(default_factory=dict)
    mean_days: float = 0.0

    def share(self, side: str) -> Share:
        return Share(side, int(self.wins.get(side, 0)), self.games)

    def rate(self, side: str) -> float:
        return self.share(side).rate

    def widest(self, sides: Iterable[str]) -> float:
        """The largest half-width among these sides (1 with no games)."""
        return max((self.share(s).half_width for s in sides), default=1.0) if self.games \
            else 1.0

    def plus(self, other: Estimate) -> Estimate:
        """Both estimates' games together (batches of one setup at one skill)."""
        games = self.games + other.games
        wins = Counter(self.wins)
        wins.update(other.wins)
        days = ((self.mean_days * self.games + other.mean_days * other.games) / games
                if games else 0.0)
        return Estimate(games, dict(wins), days)


#: plays `games` games of a setup at a skill from a seed: the agents' entry point, wrapped
Play = Callable[[Setup, float, int, int], Estimate]
#: told the games played so far and the games aimed at
Progress = Callable[[int, int], None]


def estimate(setup: Setup, skill: float, sides: Iterable[str], play: Play, *,
             wanted: float = SHOWN, seed: int = 0, first: int = FIRST_BATCH,
             most: int = MOST_GAMES, deadline: float | None = None,
             progress: Progress | None = None, start: Estimate | None = None) -> Estimate:
    """Play batches until every side in `sides` has a half-width of at most `wanted`, or
    `most` games are played, or `time.monotonic()` passes `deadline` (checked before each
    batch: past it, nothing more is played). `start`: games already played of this setup
    (a table's cell, from `seed`), continued. Each batch's seed follows the games before
    it, so the result is the same however it was split."""
    watched = tuple(sides)
    total = start or Estimate(0)
    if total.games and total.widest(watched) <= wanted:
        return total
    batch = min(max(first, _aim(total, watched, wanted) - total.games), most - total.games,
                CHUNK if deadline is None else PROBE)
    per_game = 0.0  # seconds a game took so far: a batch must fit before the deadline
    while batch > 0:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if per_game:
                batch = max(1, min(batch, int(left / per_game)))
        began = time.monotonic()
        total = total.plus(play(setup, skill, batch, seed + total.games))
        per_game = (time.monotonic() - began) / batch
        aim = _aim(total, watched, wanted)
        if progress is not None:
            progress(total.games, min(aim, most))
        if total.widest(watched) <= wanted or total.games >= most:
            break
        batch = min(max(aim - total.games, first), most - total.games, CHUNK)
    return total


def _aim(total: Estimate, sides: tuple[str, ...], wanted: float) -> int:
    """The games the widest watched side needs at its current rate (none played: 0)."""
    if not total.games:
        return 0
    return max((games_needed(total.rate(s), wanted) for s in sides), default=total.games)
