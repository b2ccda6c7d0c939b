"""What a rule set calls a fair game, for the balance advisor (core/balance): plain data the
rule set declares, so that the advisor knows no rule set by name.

A two-sided game (the changelings) aims one side at a band ("ponies 50 ± 5"); a game with
loners (the alchemists) aims two sides at each other ("town and homunculi within 5 points")
and a loner at a band of its own; sides named nowhere are reported, not aimed at. The
verdicts are msgids of the rule set's own catalog, so each game says it in its own voice."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Band:
    """A side's win rate should lie in [low, high] (fractions)."""

    side: str
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Pair:
    """Two sides' win rates should lie within `within` of each other (a fraction)."""

    first: str
    second: str
    within: float


@dataclass(frozen=True, slots=True)
class BalanceTarget:
    """A rule set's balance target and the words it says its verdicts in.

    `filler`: the plain role that fills the seats the special roles leave (adding a role
    takes one of its seats, removing one gives it back). `headline`: the side whose rate a
    one-line summary names; `contenders`: the sides a verdict may say a game favours.
    `fair`: the verdict for a game within the target; `leans`: for one outside it, with
    `{side}` the side it favours."""

    filler: str
    headline: str
    contenders: tuple[str, ...]
    bands: tuple[Band, ...] = ()
    pairs: tuple[Pair, ...] = ()
    fair: str = ""
    leans: str = ""

    def sides(self) -> tuple[str, ...]:
        """The sides the target aims at, in the order it names them."""
        named = [b.side for b in self.bands]
        for p in self.pairs:
            named += [p.first, p.second]
        return tuple(dict.fromkeys(named))
