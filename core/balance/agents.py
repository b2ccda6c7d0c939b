"""The contract between the driver and a rule set's simulated players, and how the two find
each other: a rule set ships its agents under the entry point group `nightfall.agents` (named
by the rule set's id), as it ships itself under `nightfall.rulesets`."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib.metadata import entry_points
from typing import Protocol

from core.engine import Command
from core.engine.ids import ActionId, PlayerId

from .view import Public, Reader, View

AGENT_ENTRY_POINTS = "nightfall.agents"

# the action ids a player's own keyboard offers him now (what the bot would show him)
Keyboard = Callable[[PlayerId], frozenset[ActionId]]
# the town's read (the skill r): the living hidden enemies, asked only to draw a correct read
Oracle = Callable[[], Sequence[PlayerId]]


class Exchange(StrEnum):
    """When a team with a once-per-game conversion (the changelings' exchange) uses it."""

    NIGHT_ONE = "night_one"  # at once: a convert is worth most early
    FOUND = "found"  # only on a found researcher (or checker)
    NEVER = "never"


@dataclass(frozen=True, slots=True)
class Policy:
    """The strategy's knobs. `theory`: information off, the random-lynch policy of the theory
    papers (everyone votes one uniformly drawn player, the killers remove a uniformly drawn
    townsperson, nothing else is used)."""

    fake: float = 0.5  # the chance that the enemy team fake-claims the checker
    exchange: Exchange = Exchange.NIGHT_ONE
    claims: bool = True  # whether the checker claims at all
    claim_day: int = 0  # the checker claims on this day regardless (0: only when it pays)
    theory: bool = False


INFORMED = Policy()
THEORY = Policy(fake=0.0, exchange=Exchange.NEVER, claims=False, theory=True)


class Strategy(Protocol):
    """One game's simulated players. `read` turns each message a player (or the table)
    receives into facts of its `View`; `moves` yields the commands for the open window, one
    at a time, so that each may depend on what the ones before it told."""

    @property
    def read(self) -> Reader: ...

    def moves(self, keyboard: Keyboard) -> Iterator[Command]: ...


class Agents(Protocol):
    """A rule set's agents: a `Strategy` for one game, given only the players' views."""

    def __call__(self, views: Mapping[PlayerId, View], public: Public, rng: random.Random,
                 r: float, policy: Policy, oracle: Oracle) -> Strategy: ...


@cache
def agents_for(ruleset_id: str) -> Agents:
    for ep in entry_points(group=AGENT_ENTRY_POINTS):
        if ep.name == ruleset_id:
            agents: Agents = ep.load()
            return agents
    raise NotImplementedError(f"no informed players for {ruleset_id}")
