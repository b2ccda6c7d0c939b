"""The part every rule set's simulated table shares, written once: the players' views, the
table's dice and each player's own, the read skill with its oracle, the day's shared coin,
whether the enemy team fake-claims this game, and the town's free bandwagon. A rule set's
`Table` subclasses it with what is its own: its reader, which of its windows asks for what,
and its teams' memory (a `core.balance.agents.Strategy` is then the subclass itself)."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field

from core.engine import Act, Command
from core.engine.ids import ActionId, PlayerId

from .agents import Oracle, Policy
from .reads import free_focus
from .view import Public, View


@dataclass(slots=True)
class AgentTable:
    """One game's simulated players, as far as every rule set's are alike."""

    views: Mapping[PlayerId, View]
    public: Public
    rng: random.Random
    r: float
    policy: Policy
    oracle: Oracle
    coin: float = 0.0  # the day's shared coin: which of several the table goes after
    fake: bool = False  # whether the enemy team fake-claims the checker this game
    rngs: dict[PlayerId, random.Random] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # each player's own dice, so that what one decides never shifts another's draws; drawn
        # first, then the fake-claim coin: the order is part of every seeded game
        self.rngs = {pid: random.Random(self.rng.getrandbits(64)) for pid in self.views}
        self.fake = self.rng.random() < self.policy.fake

    def own(self, view: View) -> random.Random:
        """The player's own dice (the table's for the table's talk)."""
        return self.rngs.get(view.me, self.rng)

    def focus(self, cleared: Callable[[Public], Collection[PlayerId]]) -> PlayerId | None:
        """The table's free bandwagon (`reads.free_focus`), by the rule set's clearing."""
        return free_focus(self.rng, self.public.living, self.policy.theory, self.r,
                          lambda: cleared(self.public), self.oracle)


def aimed(pid: PlayerId, action: ActionId, target: PlayerId | None) -> Iterator[Command]:
    """`pid`'s `action` at `target`, or nothing when he found nobody to aim at (he lets the
    window pass, as a player would who cannot decide)."""
    if target is not None:
        yield Act(pid, action, (target,))
