"""AL-BACKFIRE: over many seeded nights the measured backfire frequency matches the formula
25 % + 10 points per removal since the Stone appeared (counted when the night began), 10 points
less for crimson, at most 95 %."""

from __future__ import annotations

import math

import pytest

from core.engine import Act, Close, GameSetup, Modkill
from core.engine.game import Game
from rulesets.alchemists import RULESET
from rulesets.alchemists.roles import CANONICAL
from rulesets.alchemists.stone import give

PLAYERS = tuple((f"p{i}", f"P{i}") for i in range(1, 16))
TRIALS = 700


def backfired_once(seed: int, holder_role: str, removals: int) -> bool:
    """A night-2 Stone action by a holder of `holder_role`, `removals` removals after the Stone
    appeared: did it backfire?"""
    roles = list(CANONICAL)
    setup = GameSetup("alchemists", PLAYERS, seed=seed, roles=tuple(roles),
                      options=(("stone_backfire", "random"), ("stone_after_deaths", 20),
                               ("missed_vote_votes", 0), ("missed_votes_modkill", 0)),
                      start="day 1 vote")
    game = Game(RULESET, setup)
    holder = next(p for p in game.state.players.values() if p.role == holder_role)
    stone = game.state.rs.stone
    stone.appeared, stone.removals_at_appearance = True, 0
    give(game, holder)
    victims = [p for p in game.state.players.values()
               if p.role in ("alchemist", "linker", "bodyguard") and p is not holder]
    for victim in victims[:removals]:
        game.apply(Modkill(victim.pid))
    game.apply(Close())
    assert str(game.state.phase) == "night 2"
    target = next(p for p in game.state.players.values() if p.alive and p.pid != holder.pid)
    game.apply(Act(holder.pid, "stone_vote_plus", (target.pid,)))
    outcome = game.apply(Close())
    return any(e.kind == "backfire" for e in outcome.events)


@pytest.mark.parametrize("holder_role,removals,expected", [
    ("alchemist", 0, 0.25),
    ("alchemist", 2, 0.45),
    ("xing", 5, 0.75),
    ("crimson", 0, 0.15),
    ("crimson", 3, 0.45),
])
def test_measured_backfire_frequency_matches_the_formula(holder_role, removals, expected):
    hits = sum(backfired_once(seed, holder_role, removals) for seed in range(TRIALS))
    measured = hits / TRIALS
    margin = 4 * math.sqrt(expected * (1 - expected) / TRIALS)  # four standard errors
    assert abs(measured - expected) <= margin, f"{measured:.3f} vs {expected:.2f}"
