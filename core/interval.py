"""The interval maths behind every win rate shown, by the balance advisor and by `nightfall
simulate` (`core/simulate.py`): the Wilson score interval of a win rate, its half-width, and
how many games a wanted half-width takes.

Wilson rather than the normal approximation because a table cell may hold a few hundred
games and a side may win 3 % of them: the normal interval then reaches below zero, Wilson's
never does, and at the advisor's precision (thousands of games) the two agree."""

from __future__ import annotations

import math
import sys

Z95 = 1.96  # the 95 % quantile of the normal distribution, two-sided
SHOWN = 0.02  # the half-width a number shown to a host may have at most (issue 34)


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of successes/trials; (0, 1) for no trials (nothing known)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - margin), min(1.0, centre + margin)


def half_width(successes: int, trials: int, z: float = Z95) -> float:
    """Half the Wilson interval's width: the "± x" shown beside a rate."""
    low, high = wilson(successes, trials, z)
    return (high - low) / 2


def games_needed(rate: float, wanted: float, z: float = Z95) -> int:
    """About how many games give a half-width of `wanted` at this rate (normal
    approximation; 2,401 at 50 % for ± 2 points): the next batch's size is aimed at it.
    No width is reached by any number of games: `sys.maxsize` for it."""
    if wanted <= 0:
        return sys.maxsize
    p = min(max(rate, 0.01), 0.99)
    return math.ceil(z * z * p * (1 - p) / (wanted * wanted))
