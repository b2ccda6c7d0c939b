"""Informed games: the engine runs the game, each player's agent decides from its own `View`.

The driver is the only code that touches the game: it delivers every outcome by audience
(`view.route`), copies the public parts of the state into `Public` (the living, the live vote
tally, the phase: what the group sees), asks the strategy for the window's commands
and closes the window at its deadline. The strategy gets the views, its own dice, each
player's keyboard (what the bot offers him) and the read oracle (the skill r), never the game.
"""

from __future__ import annotations

import random

from core.engine import Close, Command, Game, Outcome, Refused
from core.engine.ids import ActionId, PlayerId
from core.engine.phase import PhaseKind

from .agents import INFORMED, Policy, agents_for
from .view import Public, View, route

MAX_WINDOWS = 400
_ENDED, _DAY = PhaseKind.ENDED, PhaseKind.DAY
_CLOSE = Close()  # commands are immutable: one deadline serves every window


class Session:
    """One informed game in progress: `window()` plays the open window and closes it."""

    def __init__(self, game: Game, rng: random.Random, r: float,
                 policy: Policy = INFORMED) -> None:
        self.game = game
        ruleset, state = game.ruleset, game.state
        self.public = public = Public()
        self.views = {pid: View(pid, public) for pid in state.players}
        town = ruleset.sides[0]  # a rule set names the town's side first

        def oracle() -> list[PlayerId]:
            """The living not on the town's side: where a correct read lands (the skill r)."""
            return [p.pid for p in state.players.values() if p.alive
                    and ruleset.side_of(game, p) != town]

        self.strategy = agents_for(ruleset.id)(self.views, public, rng, r, policy, oracle)
        self.refused = 0  # commands an agent sent that its keyboard did not allow
        self._deliver(game.opening)

    def _deliver(self, outcome: Outcome) -> None:
        game = self.game
        route(outcome, self.views, self.public, self.strategy.read,
              lambda team: game.ruleset.team_members(game, team))

    def keyboard(self, pid: PlayerId) -> frozenset[ActionId]:
        game = self.game
        return frozenset(spec.id for spec in game.ruleset.offers(game, game.state.players[pid]))

    @property
    def ended(self) -> bool:
        return self.game.state.phase.kind is _ENDED

    def window(self) -> list[Command]:
        """Play the open window to its deadline; the commands the engine accepted."""
        game, state = self.game, self.game.state
        _look(game, self.public)
        accepted: list[Command] = []
        for command in self.strategy.moves(self.keyboard):
            try:
                outcome = game.apply(command)
            except Refused:
                self.refused += 1
                continue
            accepted.append(command)
            self._deliver(outcome)
            if state.phase.kind is _ENDED:
                return accepted
        self._deliver(game.apply(_CLOSE))
        return accepted


def play_informed(game: Game, rng: random.Random, r: float, policy: Policy = INFORMED) -> int:
    """Play the game to its end; the number of commands the engine refused (0 in a sound
    strategy)."""
    session = Session(game, rng, r, policy)
    for _ in range(MAX_WINDOWS):
        if session.ended:
            break
        session.window()
    return session.refused


def _look(game: Game, public: Public) -> None:
    """What the group sees as the window opens."""
    state = game.state
    public.living = state.living_ids()
    public.votes = state.votes
    public.tally = state.closed_count
    public.stage = state.phase.stage
    public.day = state.phase.number if state.phase.kind is _DAY else state.phase.number + 1
