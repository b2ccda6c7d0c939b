"""CH-SIZE and CH-DEAL: player counts and the default deal (scenario files fix roles by hand)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.engine import GameSetup, SetupError
from core.engine.game import Game
from rulesets.changelings import RULESET
from rulesets.changelings.deal import WALK, deal_roles, default_changelings
from rulesets.changelings.roles import CHANGELING_ROLES, ROLES


def setup_for(count: int, **options: object) -> GameSetup:
    return GameSetup("changelings", tuple((f"p{i}", f"P{i}") for i in range(count)), seed=1,
                     options=tuple(options.items()))


@pytest.mark.parametrize("count,expected", [(6, 2), (9, 2), (10, 3), (14, 3), (15, 4), (30, 4)])
def test_ch_size_default_changeling_count(count, expected):
    roles = deal_roles(count, 0, random.Random(count))
    assert sum(r in CHANGELING_ROLES for r in roles) == expected
    assert default_changelings(count) == expected


@pytest.mark.parametrize("count", [5, 31])
def test_ch_size_refuses_too_few_or_too_many(count):
    with pytest.raises(SetupError):
        Game(RULESET, setup_for(count))


@pytest.mark.parametrize("count", range(6, 31))
def test_ch_deal_keeps_plain_ponies_at_least_as_many_as_pony_specials(count):
    roles = deal_roles(count, 0, random.Random(count))
    tally = Counter(roles)
    pony_specials = sum(n for r, n in tally.items()
                        if ROLES[r].side == "ponies" and ROLES[r].special)
    assert tally["pony"] >= pony_specials
    assert len(roles) == count
    assert ("stalker" in tally) == ("confused_changeling" in tally)


def test_ch_deal_walks_the_list_in_order_and_stops_at_the_first_misfit():
    order = [r for entry in WALK for r in (entry if isinstance(entry, tuple) else (entry,))]
    for count in range(6, 31):
        dealt = set(deal_roles(count, 0, random.Random(0))) - {"pony", "changeling"}
        taken = [r for r in order if r in dealt]
        assert taken == order[: len(taken)], f"{count} players: {taken}"


def test_ch_deal_queen_and_liar_replace_plain_changelings():
    roles = deal_roles(30, 4, random.Random(3))
    assert {"queen", "liar"} <= set(roles)
    assert sum(r in CHANGELING_ROLES for r in roles) == 4


def test_ch_deal_host_may_set_two_to_four_changelings():
    with pytest.raises(SetupError):
        Game(RULESET, setup_for(12, changelings=5))
    game = Game(RULESET, setup_for(12, changelings=4))
    assert sum(p.role in CHANGELING_ROLES for p in game.state.players.values()) == 4


def test_ch_deal_is_deterministic_for_a_seed():
    assert deal_roles(16, 0, random.Random(9)) == deal_roles(16, 0, random.Random(9))


def test_unknown_option_is_refused_with_its_name():
    with pytest.raises(SetupError, match="no_such_option"):
        Game(RULESET, setup_for(8, no_such_option=True))


@pytest.mark.parametrize("team", [1, 5])
def test_ch_size_a_listed_deal_needs_two_to_four_changelings(team):
    """CH-SIZE: "zwei bis vier Changelinge" holds for a host's role list too."""
    count = 12
    roles = tuple(["changeling"] * team + ["pony"] * (count - team))
    setup = GameSetup("changelings", tuple((f"p{i}", f"P{i}") for i in range(count)),
                      seed=1, roles=roles)
    with pytest.raises(SetupError, match="2 to 4"):
        Game(RULESET, setup)
    ok = tuple(["queen", "liar"] + ["pony"] * (count - 2))
    Game(RULESET, GameSetup("changelings", setup.players, seed=1, roles=ok))
