"""How far an estimate is from the rule set's balance target (`Ruleset.balance`): zero
inside it, else the points by which its bands and pairs are missed, added up; and which
side an unfair game favours."""

from __future__ import annotations

from core.engine.balance_target import BalanceTarget

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


def favoured(target: BalanceTarget, estimate: Estimate) -> str:
    """The contender winning most often: the side an unfair game leans to."""
    return max(target.contenders, key=estimate.rate)
