"""The informed players (core/balance, rulesets/changelings/agents), research/balance.md §5.5:
A3 view invariance, A4 monotonicity, A5 determinism, and a sound strategy (nothing refused).
Seeded, a few thousand games in all."""

from __future__ import annotations

import math
import random

import pytest

from core.balance import Players, SideId, play_games
from core.balance.driver import Session
from core.engine import Act, Command, Vote, replay
from core.engine.ids import PlayerId, RoleId
from core.engine.registry import load_ruleset
from core.engine.state import canonical
from core.simulate import new_game
from rulesets.changelings.deal import deal_roles

RULESET = load_ruleset("changelings")
PONIES = SideId("ponies")


def first_decisions(roles: list[RoleId], seed: int, who: PlayerId) -> list[Command]:
    """What `who` sends in the election and the first night."""
    game = new_game(RULESET, len(roles), seed, tuple(roles))
    session = Session(game, random.Random(seed), 0.0)
    sent: list[Command] = []
    for _ in range(2):  # day 1 (election), night 1 (dusk)
        sent += [c for c in session.window()
                 if isinstance(c, (Act, Vote)) and c.by == who]
    return sent


def hidden_from(roles: list[RoleId], seat: int) -> list[int]:
    """The seats whose roles the player at `seat` cannot know at the start: all but his own,
    his fellow changelings' (the team learns each other) and the confused one the stalker
    is told of."""
    team = {"changeling", "queen", "liar"}
    known = {seat}
    if roles[seat] in team:
        known |= {i for i, r in enumerate(roles) if r in team}
    if roles[seat] == "stalker":
        known |= {i for i, r in enumerate(roles) if r == "confused_changeling"}
    return [i for i in range(len(roles)) if i not in known]


@pytest.mark.parametrize("players", [12, 20])
def test_decisions_depend_only_on_the_view(players: int) -> None:
    """A3: reshuffle the roles a player cannot know; his choices stay the same."""
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        roles = deal_roles(players, 0, rng)
        for seat in range(players):
            hidden = hidden_from(roles, seat)
            moved = [roles[i] for i in hidden]
            rng.shuffle(moved)
            other = list(roles)
            for i, role in zip(hidden, moved, strict=True):
                other[i] = role
            who = PlayerId(f"p{seat + 1}")
            mine = first_decisions(roles, seed, who)
            assert first_decisions(other, seed, who) == mine, (seed, seat, roles[seat])
            compared += len(mine)
    assert compared > 40 * players  # every player votes; many act at night too


def test_the_same_seed_plays_the_same_games_and_each_replays() -> None:
    """A5: same seed, same tally; an informed game replays to the same state."""
    first = play_games("changelings", 12, None, {}, Players.INFORMED, 0.3, 40, 3)
    assert play_games("changelings", 12, None, {}, Players.INFORMED, 0.3, 40, 3) == first
    game = new_game(RULESET, 16, 5)
    session = Session(game, random.Random(5), 0.3)
    while not session.ended:
        session.window()
    again = replay(RULESET, game.setup, [command for command, _ in game.log])
    assert canonical(again.state) == canonical(game.state)
    assert session.refused <= 2  # a lover's harmful choice against his partner, at most


def ponies(players: int, roles: tuple[RoleId, ...] | None, r: float, games: int,
           seed: int, **options: object) -> tuple[float, float]:
    tally = play_games("changelings", players, roles, options, Players.INFORMED, r, games, seed)
    p = tally.rate(PONIES)
    return p, math.sqrt(p * (1 - p) / games)


def plain(players: int, changelings: int, *specials: str) -> tuple[RoleId, ...]:
    named = [RoleId(s) for s in specials]
    return tuple(named + [RoleId("pony")] * (players - changelings - len(named))
                 + [RoleId("changeling")] * changelings)


def at_least_3_sigma(better: tuple[float, float], worse: tuple[float, float]) -> bool:
    return better[0] - worse[0] >= 3 * math.hypot(better[1], worse[1])


GAMES = 1200


def test_another_changeling_lowers_the_ponies() -> None:
    two = ponies(10, plain(10, 2, "researcher", "shield"), 0.3, GAMES, 11)
    three = ponies(10, plain(10, 3, "researcher", "shield"), 0.3, GAMES, 11)
    assert at_least_3_sigma(two, three)


def test_the_researcher_and_the_shield_raise_the_ponies() -> None:
    bare = ponies(10, plain(10, 2), 0.3, GAMES, 12, random_lovers=False)
    informed = ponies(10, plain(10, 2, "researcher", "shield"), 0.3, GAMES, 12,
                      random_lovers=False)
    assert at_least_3_sigma(informed, bare)


def test_a_sharper_table_raises_the_ponies() -> None:
    new = ponies(10, None, 0.15, GAMES, 13)
    sharp = ponies(10, None, 0.45, GAMES, 13)
    assert at_least_3_sigma(sharp, new)
