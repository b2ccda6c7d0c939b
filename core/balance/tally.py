"""The value types of a balance estimate: who plays, how well the town reads, what came out.

All are immutable and picklable, so a worker process can return them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, NewType

SideId = NewType("SideId", str)  # a rule set's side id: "ponies", "changelings", "town" ...


class Players(StrEnum):
    """How the simulated players play."""

    RANDOM = "random"  # the generic random driver (core/simulate.py): blind, for speed and rules
    INFORMED = "informed"  # agents that decide from what their player was told (core/balance)
    THEORY = "theory"  # information off: the random lynch of the theory papers (balance/theory.py)


@dataclass(frozen=True, slots=True)
class Skill:
    """The town's read skill r: how often the town's free bandwagon (a vote with no claim to
    follow) lands on a hidden enemy instead of a uniformly drawn suspect. r = 0 is the random
    lynch of the theory papers; humans in open vanilla games play like r ≈ 0.3–0.45."""

    r: float
    NEW_TABLE: ClassVar[Skill]
    REGULAR: ClassVar[Skill]
    SHARP: ClassVar[Skill]

    def __post_init__(self) -> None:
        if not 0.0 <= self.r <= 1.0:
            raise ValueError(f"a read skill is a probability, not {self.r}")


Skill.NEW_TABLE = Skill(0.15)
Skill.REGULAR = Skill(0.3)
Skill.SHARP = Skill(0.45)
PRESETS: tuple[Skill, ...] = (Skill.NEW_TABLE, Skill.REGULAR, Skill.SHARP)


@dataclass(frozen=True, slots=True)
class Tally:
    """What `games` simulated games of one table came to. A game may have several winning
    sides (the alchemists' co-winners), so the wins may add up to more than `games`; a game
    nobody won is a draw, one that ran past the window limit is stuck."""

    games: int
    wins: tuple[tuple[SideId, int], ...]  # every side of the rule set, in its order
    draws: int
    stuck: int
    days_total: int

    def won(self, side: SideId | str) -> int:
        return next((n for s, n in self.wins if s == side), 0)

    def rate(self, side: SideId | str) -> float:
        return self.won(side) / self.games if self.games else 0.0

    @property
    def mean_days(self) -> float:
        return self.days_total / self.games if self.games else 0.0

    def __add__(self, other: Tally) -> Tally:
        """Two tallies of the same table (e.g. from two workers) as one."""
        sides = [s for s, _ in self.wins] + [s for s, _ in other.wins if s not in
                                             {s for s, _ in self.wins}]
        return Tally(self.games + other.games,
                     tuple((s, self.won(s) + other.won(s)) for s in sides),
                     self.draws + other.draws, self.stuck + other.stuck,
                     self.days_total + other.days_total)
