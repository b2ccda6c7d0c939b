"""The simulated players against the theory (research/balance.md §1.1, §5.5 A1, A2): with
information switched off, the engine and the agents reproduce the exact random-lynch
recursion of Braverman–Etesami–Mossel and Migdał, every cell within 3 standard errors.
Seeded, so a pass is a pass on every machine."""

from __future__ import annotations

import math

import pytest

from core.balance import Players, play_games
from core.balance.agents import Exchange, Policy
from core.balance.theory import town_by_day, town_wins
from core.engine.ids import RoleId

GAMES = 2000
CELLS = [(6, 2), (8, 2), (10, 3), (12, 3), (16, 4), (20, 4)]
INFO_OFF = Policy(fake=0.0, exchange=Exchange.NEVER, claims=False)


def plain(players: int, changelings: int) -> tuple[RoleId, ...]:
    return tuple(RoleId("pony") for _ in range(players - changelings)) + tuple(
        RoleId("changeling") for _ in range(changelings))


def z_score(players: int, changelings: int, play: Players, policy: Policy | None) -> float:
    tally = play_games("changelings", players, plain(players, changelings),
                       {"random_lovers": False}, play, 0.0, GAMES, 1000 * players + changelings,
                       policy=policy)
    exact = town_wins(players, changelings)
    assert tally.stuck == tally.draws == 0
    return (tally.rate("ponies") - exact) / math.sqrt(exact * (1 - exact) / GAMES)


def test_the_recursion_matches_the_published_table() -> None:
    """mafiascum's "Numbers, Part 1" (night start), 14 of its 15 entries to the digit."""
    for players, mafia, wiki in [(6, 1, 46.67), (12, 2, 35.21), (16, 2, 43.01),
                                 (20, 3, 30.66), (24, 3, 35.49)]:
        assert round(100 * town_wins(players, mafia), 2) == wiki


def test_one_killer_by_day_is_the_double_factorial_closed_form() -> None:
    for players in range(3, 24):
        product = 1.0
        for k in range(players, 2, -2):
            product *= (k - 1) / k
        assert float(town_by_day(players - 1, 1)) == pytest.approx(1 - product)


@pytest.mark.parametrize(("players", "changelings"), CELLS)
def test_the_engine_plays_the_random_lynch(players: int, changelings: int) -> None:
    """A1: everyone votes one uniformly drawn player, the hive takes a drawn pony."""
    assert abs(z_score(players, changelings, Players.THEORY, None)) < 3


@pytest.mark.parametrize(("players", "changelings"), CELLS)
def test_informed_players_without_information_play_it_too(players: int,
                                                          changelings: int) -> None:
    """A2: the informed agents at r = 0 with no claims and no exchange."""
    assert abs(z_score(players, changelings, Players.INFORMED, INFO_OFF)) < 3
