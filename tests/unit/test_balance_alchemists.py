"""The homunculus game's informed players (rulesets/alchemists/agents): a player's first-night
choices do not change when the roles he cannot know are reshuffled (A3), the same seed plays
the same games and each replays (A5), and the strategy asks for nothing its keyboard refuses."""

from __future__ import annotations

import random

import pytest

from core.balance import Players, SideId, play_games
from core.balance.driver import Session
from core.engine import Act, Command, Vote, replay
from core.engine.ids import PlayerId, RoleId
from core.engine.registry import load_ruleset
from core.engine.state import canonical
from core.simulate import new_game

RULESET = load_ruleset("alchemists")
HOMUNCULI = {"father", "lust", "envy", "pride"}


def first_night(roles: list[RoleId], seed: int, who: PlayerId) -> list[Command]:
    game = new_game(RULESET, len(roles), seed, tuple(roles))
    session = Session(game, random.Random(seed), 0.0)
    return [c for c in session.window() if isinstance(c, (Act, Vote)) and c.by == who]


def known_to(roles: list[RoleId], seat: int) -> set[int]:
    """The seats whose roles the player at `seat` is told at the start (rules §2)."""
    mine = roles[seat]
    seats = {seat}
    if mine == "father":
        seats |= {i for i, r in enumerate(roles) if r in HOMUNCULI or r == "greed"}
    elif mine in HOMUNCULI or mine == "greed":
        seats |= {i for i, r in enumerate(roles) if r == "father"}
    elif mine in ("xing", "bodyguard"):
        seats |= {i for i, r in enumerate(roles) if r in ("xing", "bodyguard")}
    return seats


@pytest.mark.parametrize("players", [11, 15])
def test_first_night_choices_depend_only_on_the_view(players: int) -> None:
    compared = 0
    for seed in range(25):
        rng = random.Random(seed)
        roles = RULESET.deal(players, dict(RULESET.default_options), rng)
        for seat in range(players):
            hidden = [i for i in range(players) if i not in known_to(roles, seat)]
            moved = [roles[i] for i in hidden]
            rng.shuffle(moved)
            other = list(roles)
            for i, role in zip(hidden, moved, strict=True):
                other[i] = role
            who = PlayerId(f"p{seat + 1}")
            mine = first_night(roles, seed, who)
            assert first_night(other, seed, who) == mine, (seed, seat, roles[seat])
            compared += len(mine)
    assert compared > 25 * 4  # the homunculi, father, xing, crystal, the loners act


def test_same_seed_same_games_which_replay_and_nothing_is_refused() -> None:
    first = play_games("alchemists", 15, None, {}, Players.INFORMED, 0.3, 30, 9)
    assert play_games("alchemists", 15, None, {}, Players.INFORMED, 0.3, 30, 9) == first
    assert first.stuck == 0 and first.won(SideId("town")) + first.won(SideId("homunculi")) > 0
    for seed in range(20):
        game = new_game(RULESET, 13 + seed % 8, seed)
        session = Session(game, random.Random(seed), 0.3)
        while not session.ended:
            session.window()
        assert session.refused == 0, seed
    again = replay(RULESET, game.setup, [command for command, _ in game.log])
    assert canonical(again.state) == canonical(game.state)


def test_a_sharper_town_wins_more() -> None:
    """A4 for the homunculus game: the town's read skill raises the town, lowers the hive."""
    games = 600
    blind = play_games("alchemists", 15, None, {}, Players.INFORMED, 0.0, games, 500)
    sharp = play_games("alchemists", 15, None, {}, Players.INFORMED, 0.6, games, 500)
    town, blind_town = sharp.rate(SideId("town")), blind.rate(SideId("town"))
    error = ((town * (1 - town) + blind_town * (1 - blind_town)) / games) ** 0.5
    assert town - blind_town >= 3 * error
    assert sharp.rate(SideId("homunculi")) < blind.rate(SideId("homunculi"))
