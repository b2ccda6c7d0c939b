"""How far an estimate is from the rule set's balance target (`Ruleset.balance`): zero
inside it, else the points by which its bands and pairs are missed, added up; and which
side an unfair game favours."""

from __future__ import annotations

import math

from core.engine.balance_target import BalanceTarget
from core.interval import Z95

from .estimate import Estimate


def distance(target: BalanceTarget, estimate: Estimate) -> float:
    """How far outside the target the estimate's rates lie (0: within it), as a fraction."""
    missed = 0.0
    for band in target.bands:
        rate = estimate.rate(band.side)
        missed += max(0.0, band.low - rate, rate - band.high)
    for pair in target.pairs:
        gap = abs(estimate.rate(pair.first) - estimate.rate(pair.second))
        missed += max(0.0, gap - pair.within)
    return missed


def within(target: BalanceTarget, estimate: Estimate) -> bool:
    return distance(target, estimate) == 0.0


def surely_within(target: BalanceTarget, estimate: Estimate) -> bool:
    """Within the target at both ends of the estimate's 95 % intervals: what recommending a
    role set as reaching the target claims. A set whose rate sits at the band's edge (45 % ±2
    for the ponies) is as likely outside as inside, and fresh games would often say so; it is
    shown as the closest instead. (A table is called fair on its rates alone: that describes
    the host's own table, it recommends nothing.)"""
    if not estimate.games:
        return False
    for band in target.bands:
        low, high = estimate.share(band.side).interval
        if low < band.low or high > band.high:
            return False
    for pair in target.pairs:
        first, second = estimate.rate(pair.first), estimate.rate(pair.second)
        # the two sides' wins come from the same games: the gap's variance is
        # (p1 + p2 - (p1 - p2)^2) / n, wider than either side's own
        spread = Z95 * math.sqrt(max(0.0, first + second - (first - second) ** 2)
                                 / estimate.games)
        if abs(first - second) + spread > pair.within:
            return False
    return True


def favoured(target: BalanceTarget, estimate: Estimate) -> str:
    """The contender winning most often: the side an unfair game leans to."""
    return max(target.contenders, key=estimate.rate)
