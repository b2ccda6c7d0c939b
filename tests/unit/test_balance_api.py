"""The balance estimator's public surface: `play_games` is deterministic for a seed, takes a
host's role list and options, and its tallies add up across workers."""

from __future__ import annotations

import pickle

import pytest

from core.balance import Players, SideId, Skill, Tally, parse_options, play_games
from core.engine import SetupError
from core.engine.ids import RoleId
from core.engine.registry import load_ruleset

PLAIN_8 = tuple(RoleId(r) for r in ["pony"] * 6 + ["changeling"] * 2)


def test_same_seed_same_tally() -> None:
    first = play_games("changelings", 8, None, {}, Players.RANDOM, Skill.REGULAR, 30, 7)
    again = play_games("changelings", 8, None, {}, Players.RANDOM, Skill.REGULAR, 30, 7)
    assert first == again
    assert first.games == 30
    assert sum(n for _, n in first.wins) + first.draws + first.stuck >= 30


def test_a_role_list_and_options_are_played() -> None:
    tally = play_games("changelings", 8, PLAIN_8, {"random_lovers": False}, Players.RANDOM,
                       0.0, 20, 0)
    assert tally.won(SideId("lovers")) == 0  # nobody deals a love poison, no random lovers
    with pytest.raises(SetupError):
        play_games("changelings", 8, PLAIN_8[:7], {}, Players.RANDOM, 0.0, 1, 0)


def test_tallies_add_up_and_travel_between_processes() -> None:
    a = play_games("changelings", 8, None, {}, Players.RANDOM, 0.3, 10, 0)
    b = play_games("changelings", 8, None, {}, Players.RANDOM, 0.3, 10, 10)
    whole = play_games("changelings", 8, None, {}, Players.RANDOM, 0.3, 20, 0)
    assert a + b == whole
    assert pickle.loads(pickle.dumps(whole)) == whole
    assert isinstance(whole, Tally) and whole.mean_days > 0


def test_options_are_read_to_their_types() -> None:
    ruleset = load_ruleset("changelings")
    assert parse_options(ruleset, ["changelings=3", "random_lovers=off"]) == {
        "changelings": 3, "random_lovers": False}
    with pytest.raises(SetupError):
        parse_options(ruleset, ["no_such=1"])


def test_a_skill_is_a_probability() -> None:
    assert Skill.NEW_TABLE.r < Skill.REGULAR.r < Skill.SHARP.r
    with pytest.raises(ValueError, match="probability"):
        Skill(1.5)


def test_simulate_takes_roles_options_and_informed_players() -> None:
    from click.testing import CliRunner

    from core.cli import main

    roles = ",".join(["pony"] * 6 + ["changeling"] * 2)
    result = CliRunner().invoke(main, ["simulate", "--games", "20", "--roles", roles,
                                       "--option", "random_lovers=off",
                                       "--players-play", "informed", "--skill", "0.45"])
    assert result.exit_code == 0, result.output
    assert "with 8 players" in result.output and "read skill 0.45" in result.output
    refused = CliRunner().invoke(main, ["simulate", "--games", "1", "--option", "nope=1"])
    assert refused.exit_code != 0 and "Unknown option: nope." in refused.output
