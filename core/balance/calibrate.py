"""The town's skill fitted from a chat's own finished games against the shipped tables: the
skill under which the chat's results were most likely, weighed by a prior around a regular
table.

Each game's chance that the headline side (the town: the ponies, the alchemists' town) wins
is read from the table as a function of skill: the cell of the game's exact setup (its
dealt roles and the options that change play) at each preset, or, where the table has no
such cell (a custom list, other options), the cell of the rule set's deal for that player
count; a game whose count the table does not hold at all is left out. Between the presets
the chance is linear in skill, and continued along the outer segments beyond them to the
grid's ends (0.05 and 0.6: the research finds the rates close to linear in skill, and skill
0 is the random lynch of the theory papers), kept within [1 %, 99 %] so that no game is
impossible. A cell's rate is smoothed by half a game each way (a cell won 0 of 200 times is
not a certainty), and the three presets' rates are made non-decreasing in skill, pooling
neighbours weighted by their games where noise turned them round (a sharper town reading
worse is the cells' noise, not the game): so a won game never argues for a lower skill, and
the fit rises with the town's wins.

A chat's games tell its skill slowly (see `ENOUGH`), so the fit starts from what a host
assumes without them, a regular table: the likelihood is weighed by a normal prior around
the regular preset (0.3, sd `PRIOR_SD`), which a few dozen games move only part of the way
and a few hundred nearly all of it. So a prediction made at the fitted skill is never worse
than the regular preset's by much while the games are few. The weighed likelihood is
maximised over a grid (a hundredth apart; the lowest skill on a tie), and its 95 % interval
is the grid's skills whose ratio to the best stays within the chi-squared quantile of one
degree of freedom (3.84): the interval is honest for the table's
numbers taken as exact, so it leaves out the tables' own uncertainty (±2 points a cell once
regenerated, small beside that of a few dozen games). Below `ENOUGH` games nothing is
fitted."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .history import Finished
from .presets import DEFAULT, ORDERED, Assumed, Preset, nearest
from .tables import Table
from .tally import Skill

#: The fewest games a skill is fitted from. A game is one yes-or-no answer and a preset's
#: step (0.15) moves the town's chance by only 5-10 points at most table sizes, so the games
#: tell the skill slowly: with the shipped tables, 15 games leave a 95 % interval about 0.5
#: wide (nearly the whole grid) and a fit pulled towards the middle; from 30 on the fit is
#: centred on the true skill, its interval about 0.45 wide (0.4 at 60 games, 0.25-0.35 at
#: 200), and shown beside it, so a host sees how sure it is (docs/balance.md has the table).
ENOUGH = 30
GRID = tuple(round(0.05 + 0.01 * i, 2) for i in range(56))  # 0.05 … 0.60
PRIOR_SD = 0.15  # a preset's step: one step from regular is likely, two are not
CHI2_95 = 3.841  # the 95 % quantile of chi-squared with one degree of freedom
FLOOR = 0.01  # a predicted chance stays within [FLOOR, 1 − FLOOR]
TIE = 1e-9  # log-likelihoods closer than this are equal (the lower skill is taken)

#: a game's chance at each preset, lowest skill first
Curve = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class Calibration:
    """The fitted skill (on the grid), its 95 % interval, and the games behind it: `games`
    read, `won` by the headline side, `by_deal` of them read at their count's deal (their
    own setup has no cell), `left_out` (their count has no cell, or their deal cannot be
    read any more)."""

    skill: float
    low: float
    high: float
    games: int
    won: int
    by_deal: int
    left_out: int

    @property
    def preset(self) -> Preset:
        """The preset the chat plays most like."""
        return nearest(self.skill)

    @property
    def assumed(self) -> Assumed:
        """The skill a prediction assumes: the fitted one, held within the presets (the
        tables reach no further), a preset itself where it lands on one."""
        r = min(max(self.skill, ORDERED[0].r), ORDERED[-1].r)
        return next((p for p in ORDERED if math.isclose(p.r, r)), Skill(r))


def calibrate(games: Sequence[Finished], table: Table, side: str) -> Calibration | None:
    """The skill `games` (a chat's finished games of the table's rule set) fit, with `side`
    the town's; None below `ENOUGH` games the table can read."""
    deals = {c.players: c.setup for c in table if c.default}
    read: list[tuple[Curve, bool]] = []
    by_deal = 0
    for game in games:
        if game.setup is None or game.ruleset != table.ruleset:
            continue
        found = curve(table, game.setup.key(), side)
        if found is None and game.setup.players in deals:
            found = curve(table, deals[game.setup.players], side)
            by_deal += found is not None
        if found is not None:
            read.append((found, side in game.winners))
    if len(read) < ENOUGH:
        return None
    likelihood = [sum(math.log(chance(c, r) if won else 1.0 - chance(c, r)) for c, won in read)
                  - (r - DEFAULT.r) ** 2 / (2 * PRIOR_SD ** 2) for r in GRID]
    best = max(likelihood)
    skill = next(r for r, ll in zip(GRID, likelihood, strict=True) if ll >= best - TIE)
    inside = [r for r, ll in zip(GRID, likelihood, strict=True) if 2 * (best - ll) <= CHI2_95]
    return Calibration(skill, inside[0], inside[-1], len(read), sum(w for _, w in read),
                       by_deal, sum(g.ruleset == table.ruleset for g in games) - len(read))


def curve(table: Table, setup_key: str, side: str) -> Curve | None:
    """`side`'s smoothed chance at each preset for this setup, non-decreasing in skill
    (None unless the table holds the setup at every preset)."""
    cells = [table.get(setup_key, p) for p in ORDERED]
    points = [((e.wins.get(side, 0) + 0.5) / (e.games + 1), max(1, e.games))
              for e in cells if e is not None]
    if len(points) != len(ORDERED):
        return None
    low, mid, high = _nondecreasing(points)
    return low, mid, high


def chance(points: Curve, r: float) -> float:
    """The chance at skill `r`: linear between the presets, continued along the outer
    segments beyond them, within [FLOOR, 1 − FLOOR]."""
    skills = [p.r for p in ORDERED]
    i = 0 if r <= skills[1] else 1
    slope = (points[i + 1] - points[i]) / (skills[i + 1] - skills[i])
    return min(max(points[i] + slope * (r - skills[i]), FLOOR), 1.0 - FLOOR)


def _nondecreasing(points: list[tuple[float, int]]) -> list[float]:
    """The closest non-decreasing rates, weighted by games (pool adjacent violators)."""
    blocks: list[tuple[float, int, int]] = []  # (mean, weight, points pooled)
    for rate, weight in points:
        blocks.append((rate, weight, 1))
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (a, wa, na), (b, wb, nb) = blocks[-2], blocks[-1]
            blocks[-2:] = [((a * wa + b * wb) / (wa + wb), wa + wb, na + nb)]
    return [mean for mean, _, n in blocks for _ in range(n)]
