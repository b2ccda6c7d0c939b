"""The exact random-lynch recursion (Braverman–Etesami–Mossel 2008; Migdał 2013) with the
parity stop of Nightfall's changeling game (CH-END 3): what a town that lynches a uniformly
drawn living player every day wins against killers who remove one townsperson every night.

    P_day(t, m)   = m/(t+m) · P_night(t, m−1) + t/(t+m) · P_night(t−1, m)
    P_night(t, m) = P_day(t−1, m)
    P(t, 0) = 1;  P(t, m) = 0 if m ≥ t          (checked after every phase)

It is the yardstick of the simulated players with information switched off
(tests/unit/test_balance_theory.py): the engine and the agents must reproduce it.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache


@cache
def town_by_day(town: int, killers: int) -> Fraction:
    """The town's chance when a day (a lynch) comes next."""
    if killers == 0:
        return Fraction(1)
    if killers >= town:
        return Fraction(0)
    living = town + killers
    return (Fraction(killers, living) * town_by_night(town, killers - 1)
            + Fraction(town, living) * town_by_night(town - 1, killers))


@cache
def town_by_night(town: int, killers: int) -> Fraction:
    """The town's chance when a night (a kill) comes next."""
    if killers == 0:
        return Fraction(1)
    if killers >= town:
        return Fraction(0)
    return town_by_day(town - 1, killers)


def town_wins(players: int, killers: int, *, night_first: bool = True) -> float:
    """The town's chance at the start of a game of `players` with `killers` among them. The
    changeling game starts by night in this sense: day 1 only elects the mayor."""
    town = players - killers
    chance = town_by_night(town, killers) if night_first else town_by_day(town, killers)
    return float(chance)
