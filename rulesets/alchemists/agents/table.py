"""The homunculus game's simulated players (research/balance.md §3.5): one `Table` per game,
yielding each window's commands from the players' views only. Xing checks and claims, the town
votes as one (AL-TIE punishes a split), everyone votes (AL-MISS); the homunculi request through
father, who picks the kill; the loners play for their own goals; the Stone's holder weighs its
backfire."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from core.balance.agent_table import AgentTable
from core.balance.agents import Keyboard
from core.balance.view import Reader, View
from core.engine import Command
from core.engine.ids import ActionId, PlayerId

from ..common import Stage
from . import day, night
from .knowledge import HOMUNCULI, known, mine
from .reading import read


@dataclass(slots=True)
class Table(AgentTable):
    """One game's simulated players (a `core.balance.agents.Strategy`): the shared table with
    the homunculus game's reader, its windows, and the Stone's last use by each holder."""

    read: Reader = read
    stone_used: dict[PlayerId, tuple[ActionId, int]] = field(default_factory=dict)

    def moves(self, keyboard: Keyboard) -> Iterator[Command]:
        stage = self.public.stage
        if stage == Stage.VOTE:
            self.coin = self.rng.random()
            day.talk(self)
            yield from day.votes(self, keyboard)
        elif stage == Stage.REACTIONS:
            yield from day.reactions(self, keyboard)
        elif stage == Stage.NONE:
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
