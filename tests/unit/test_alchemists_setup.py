"""AL-SIZE: the canonical 15, the 9–20 variants, and setups the rules forbid (with a reason)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.engine import GameSetup, SetupError
from core.engine.game import Game
from rulesets.alchemists import RULESET
from rulesets.alchemists.roles import CANONICAL, OPTIONAL, REQUIRED


def setup_with(roles: list[str] | None, count: int | None = None) -> GameSetup:
    count = len(roles) if roles is not None else count or 15
    return GameSetup("alchemists", tuple((f"p{i}", f"P{i}") for i in range(count)), seed=3,
                     roles=None if roles is None else tuple(roles))


def test_the_canonical_fifteen_is_accepted():
    game = Game(RULESET, setup_with(list(CANONICAL)))
    assert str(game.state.phase) == "night 1"


@pytest.mark.parametrize("count", range(9, 21))
def test_the_default_deal_is_a_valid_variant_for_9_to_20(count):
    game = Game(RULESET, setup_with(None, count))
    roles = Counter(p.role for p in game.state.players.values())
    assert all(roles[r] == 1 for r in REQUIRED)
    assert all(roles[r] <= 1 for r in OPTIONAL)
    assert sum(roles.values()) == count


#: the default deal's homunculi, loners and town specials by table size (docs/alchemists-
#: decisions.md: the roles sitting out keep the town and the homunculi within about five points)
DEALT = {
    9: ({"father", "pride"}, {"ishvalan", "crimson", "greed"}, {"xing", "crystal"}),
    11: ({"father", "envy", "pride"}, {"ishvalan"}, {"xing", "crystal", "bodyguard", "linker"}),
    12: ({"father", "envy", "pride"}, {"ishvalan", "crimson"},
         {"xing", "crystal", "bodyguard", "linker"}),
    13: ({"father", "envy", "pride"}, {"ishvalan", "crimson", "greed"},
         {"xing", "crystal", "bodyguard", "linker"}),
    15: ({"father", "envy", "lust", "pride"}, {"ishvalan", "crimson", "greed"},
         {"xing", "crystal", "bodyguard", "linker"}),
    16: ({"father", "envy", "lust", "pride"}, {"ishvalan", "greed"},
         {"xing", "crystal", "bodyguard", "linker"}),
    18: ({"father", "envy", "lust", "pride"}, {"ishvalan", "crimson", "greed"},
         {"xing", "crystal", "linker"}),
}
HOMUNCULI, LONERS = {"father", "envy", "lust", "pride"}, {"ishvalan", "crimson", "greed"}


@pytest.mark.parametrize("count", sorted(DEALT))
def test_the_default_deal_seats_fewer_homunculi_below_fifteen_and_fewer_specials_above(count):
    roles = Counter(RULESET.deal(count, {}, random.Random(1)))
    homunculi, loners, town = DEALT[count]
    assert {r for r in roles if r in HOMUNCULI} == homunculi
    assert {r for r in roles if r in LONERS} == loners
    assert {r for r in roles if r not in HOMUNCULI | LONERS | {"alchemist"}} == town
    assert roles["alchemist"] == count - len(homunculi | loners | town)


def test_a_variant_may_leave_out_every_optional_role():
    Game(RULESET, setup_with([*REQUIRED, *["alchemist"] * 5]))


@pytest.mark.parametrize("roles,reason", [
    ([r for r in CANONICAL if r != "xing"] + ["alchemist"], "exactly one"),
    ([*CANONICAL[:-1], "father"], "exactly one"),
    ([*CANONICAL[:-1], "lust"], "only one"),
])
def test_a_forbidden_setup_is_refused_with_the_reason(roles, reason):
    with pytest.raises(SetupError, match=reason):
        Game(RULESET, setup_with(roles))


@pytest.mark.parametrize("count", [8, 21])
def test_fewer_than_9_or_more_than_20_players_are_refused(count):
    with pytest.raises(SetupError, match="9 to 20"):
        Game(RULESET, setup_with(None, count))


def test_a_wrong_option_value_is_refused_with_its_name():
    setup = GameSetup("alchemists", tuple((f"p{i}", f"P{i}") for i in range(15)),
                      options=(("stone_backfire", "sometimes"),))
    with pytest.raises(SetupError, match="stone_backfire"):
        Game(RULESET, setup)


def test_the_stone_threshold_is_drawn_from_3_to_5():
    seen = {Game(RULESET, GameSetup("alchemists", tuple((f"p{i}", f"P{i}") for i in range(15)),
                                    seed=seed)).state.rs.stone.threshold
            for seed in range(60)}
    assert seen == {3, 4, 5}


def test_deal_is_shuffled_by_the_seed():
    deals = {tuple(RULESET.deal(15, {}, random.Random(seed))) for seed in range(5)}
    assert len(deals) > 1
