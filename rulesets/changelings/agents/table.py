"""The pony game's simulated players (research/balance.md §3.3, built for the project): one
`Table` per game, which yields each window's commands from the players' views only.

The town's talk is reduced to the claims board and one shared bandwagon a day (`Board.focus`),
drawn with the table's read skill r; the changelings coordinate through their team chat, here
the team leader's plan that every member follows (CH-AGREE needs one target).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from core.balance.agents import Keyboard, Oracle, Policy
from core.balance.view import Public, Reader, View
from core.engine import Command
from core.engine.ids import PlayerId

from . import day, night
from .knowledge import on_team
from .reading import read


@dataclass(slots=True)
class Table:
    """One game's simulated players (a `core.balance.agents.Strategy`)."""

    views: Mapping[PlayerId, View]
    public: Public
    rng: random.Random
    r: float
    policy: Policy
    oracle: Oracle
    read: Reader = read
    coin: float = 0.0  # the day's shared coin: which of several the table goes after
    fake: bool = False  # whether the changelings will fake-claim the researcher this game
    shielded: dict[PlayerId, PlayerId] = field(default_factory=dict)  # the shield's last night
    rngs: dict[PlayerId, random.Random] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # each player's own dice, so that what one decides never shifts another's draws
        self.rngs = {pid: random.Random(self.rng.getrandbits(64)) for pid in self.views}
        self.fake = self.rng.random() < self.policy.fake

    def own(self, view: View) -> random.Random:
        """The player's own dice (the table's for the table's talk)."""
        return self.rngs.get(view.me, self.rng)

    def moves(self, keyboard: Keyboard) -> Iterator[Command]:
        stage = self.public.stage
        if stage == "vote":
            self.coin = self.rng.random()
            day.talk(self)
            yield from day.votes(self)
        elif stage == "election":
            self.coin = self.rng.random()
            yield from day.election(self)
        elif stage == "reactions":
            yield from day.reactions(self, keyboard)
        elif stage == "dusk":
            yield from night.dusk(self, keyboard)
        elif stage == "dawn":
            yield from night.dawn(self, keyboard)

    # ------------------------------------------------------------------ shared by the team
    def team(self) -> list[View]:
        """The living changelings as each knows himself: the team chat's members."""
        living = set(self.public.living)
        return [v for v in self.views.values() if v.me in living and on_team(v)]

    def leader(self) -> View | None:
        """Who speaks first in the team chat: the others follow his plan."""
        team = self.team()
        return team[0] if team else None


def make_table(views: Mapping[PlayerId, View], public: Public, rng: random.Random, r: float,
               policy: Policy, oracle: Oracle) -> Table:
    return Table(views, public, rng, r, policy, oracle)
