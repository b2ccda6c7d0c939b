"""Informed games: the engine runs the game, each player's agent decides from its own `View`.

The driver is the only code that touches the game: it delivers every outcome by audience
(`view.route`), copies the public parts of the state into `Public` (the living, the live vote
tally, the mayor, the phase: what the group sees), asks the strategy for the window's commands
and closes the window at its deadline.
"""

from __future__ import annotations

import random

from core.engine import Close, Game, Refused
from core.engine.ids import PlayerId
from core.engine.phase import PhaseKind

from .agents import INFORMED, Policy, agents_for
from .view import Public, View, route

MAX_WINDOWS = 400
_ENDED, _DAY = PhaseKind.ENDED, PhaseKind.DAY


def play_informed(game: Game, rng: random.Random, r: float, policy: Policy = INFORMED) -> int:
    """Play the game to its end; the number of commands the engine refused (an agent that
    asked for what its keyboard did not offer: 0 in a sound strategy)."""
    ruleset, state = game.ruleset, game.state
    public = Public()
    views = {pid: View(pid, public) for pid in state.players}
    town = ruleset.sides[0]  # a rule set names the town's side first

    def oracle() -> list[PlayerId]:
        """The living not on the town's side: where a correct read lands (the skill r)."""
        return [p.pid for p in state.players.values() if p.alive
                and ruleset.side_of(game, p) != town]

    strategy = agents_for(ruleset.id)(views, public, rng, r, policy, oracle)
    read = strategy.read

    def members(team: str) -> list[PlayerId]:
        return ruleset.team_members(game, team)

    def keyboard(pid: PlayerId) -> frozenset[str]:
        return frozenset(spec.id for spec in ruleset.offers(game, state.players[pid]))

    route(game.opening, views, public, read, members)
    close = Close()
    refused = 0
    for _ in range(MAX_WINDOWS):
        if state.phase.kind is _ENDED:
            break
        _look(game, public)
        for command in strategy.moves(keyboard):
            try:
                outcome = game.apply(command)
            except Refused:
                refused += 1
                continue
            route(outcome, views, public, read, members)
            if state.phase.kind is _ENDED:
                break
        if state.phase.kind is _ENDED:
            break
        route(game.apply(close), views, public, read, members)
    return refused


def _look(game: Game, public: Public) -> None:
    """What the group sees as the window opens."""
    state = game.state
    public.living = state.living_ids()
    public.votes = state.votes
    public.tally = state.closed_count
    public.stage = state.phase.stage
    public.day = state.phase.number if state.phase.kind is _DAY else state.phase.number + 1
    public.mayor = next((p.pid for p in state.players.values() if "mayor" in p.statuses), None)
