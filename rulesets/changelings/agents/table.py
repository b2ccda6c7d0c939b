"""The pony game's simulated players (research/balance.md §3.3, built for the project): one
`Table` per game, which yields each window's commands from the players' views only.

The town's talk is reduced to the claims board and one shared bandwagon a day (`Board.focus`),
drawn with the table's read skill r; the changelings coordinate through their team chat, here
the team leader's plan that every member follows (CH-AGREE needs one target).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from core.balance.agent_table import AgentTable
from core.balance.agents import Keyboard
from core.balance.view import Reader, View
from core.engine import Command
from core.engine.ids import PlayerId

from ..vocabulary import Stage
from . import day, night
from .knowledge import on_team
from .reading import read


@dataclass(slots=True)
class Table(AgentTable):
    """One game's simulated players (a `core.balance.agents.Strategy`): the shared table with
    the pony game's reader, its windows, and the shield's memory."""

    read: Reader = read
    shielded: dict[PlayerId, PlayerId] = field(default_factory=dict)  # the shield's last night

    def moves(self, keyboard: Keyboard) -> Iterator[Command]:
        stage = self.public.stage
        if stage == Stage.VOTE:
            self.coin = self.rng.random()
            day.talk(self)
            yield from day.votes(self)
        elif stage == Stage.ELECTION:
            self.coin = self.rng.random()
            yield from day.election(self)
        elif stage == Stage.REACTIONS:
            yield from day.reactions(self, keyboard)
        elif stage == Stage.DUSK:
            yield from night.dusk(self, keyboard)
        elif stage == Stage.DAWN:
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
