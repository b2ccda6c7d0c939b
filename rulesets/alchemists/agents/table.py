"""The homunculus game's simulated players (research/balance.md §3.5): one `Table` per game,
yielding each window's commands from the players' views only. Xing checks and claims, the town
votes as one (AL-TIE punishes a split), everyone votes (AL-MISS); the homunculi request through
father, who picks the kill; the loners play for their own goals; the Stone's holder weighs its
backfire."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from core.balance.agents import Keyboard, Oracle, Policy
from core.balance.view import Public, Reader, View
from core.engine import Command
from core.engine.ids import PlayerId

from . import day, night
from .knowledge import HOMUNCULI, known, mine
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
    coin: float = 0.0
    fake: bool = False
    rngs: dict[PlayerId, random.Random] = field(default_factory=dict)
    stone_used: dict[PlayerId, tuple[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rngs = {pid: random.Random(self.rng.getrandbits(64)) for pid in self.views}
        self.fake = self.rng.random() < self.policy.fake

    def own(self, view: View) -> random.Random:
        return self.rngs.get(view.me, self.rng)

    def moves(self, keyboard: Keyboard) -> Iterator[Command]:
        stage = self.public.stage
        if stage == "vote":
            self.coin = self.rng.random()
            day.talk(self)
            yield from day.votes(self, keyboard)
        elif stage == "reactions":
            yield from day.reactions(self, keyboard)
        elif stage == "":
            self.public.links.clear()  # a link holds for one day
            yield from night.night(self, keyboard)

    def band(self, view: View) -> set[PlayerId]:
        """The homunculi this homunculus knows (father knows them all; the others know father,
        and each other once father and pride are dead)."""
        return {pid for pid in view.learned if known(view, pid) == HOMUNCULI} | {view.me}

    def head(self) -> View | None:
        """The living homunculus who knows the most of the band: father, whose word the others
        get through the bot (the relay along father's lines)."""
        living = self.public.living
        band = [self.views[pid] for pid in living if mine(self.views[pid]) == HOMUNCULI]
        return max(band, key=lambda v: len(self.band(v)), default=None)


def make_table(views: Mapping[PlayerId, View], public: Public, rng: random.Random, r: float,
               policy: Policy, oracle: Oracle) -> Table:
    return Table(views, public, rng, r, policy, oracle)
