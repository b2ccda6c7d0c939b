"""The story of a game read from seeded random games of both rule sets: it must agree with
the engine's own final state and event log."""

from __future__ import annotations

import itertools

import pytest

from core.engine import Game
from core.engine.registry import load_ruleset
from core.engine.story import Bond, Line
from core.simulate import play_random_game
from core.story import Story, story_of
from rulesets.alchemists.story import STONE, SUCCESSIONS
from rulesets.changelings.story import MAYORS

GAMES = [(rs, n, seed) for rs, n in (("changelings", 9), ("changelings", 16),
                                      ("alchemists", 9), ("alchemists", 16))
         for seed in range(6)]


def played(ruleset: str, players: int, seed: int):  # type: ignore[no-untyped-def]
    return play_random_game(load_ruleset(ruleset), players, seed)


def events(game, kind):  # type: ignore[no-untyped-def]
    return [e for _, out in game.log for e in out.events if e.kind == kind]


def holders(story: Story, words: object) -> list[str]:
    """The names of the rule set's line told in these words (none if it was not told)."""
    return [pid for extra in story.extras if isinstance(extra, Line) and extra.words == words
            for pid in extra.holders]


@pytest.mark.parametrize(("ruleset", "players", "seed"), GAMES)
def test_every_player_has_the_role_side_and_fate_the_game_ended_with(
        ruleset: str, players: int, seed: int) -> None:
    game = played(ruleset, players, seed)
    story = story_of(game)
    assert story.winners == tuple(game.state.winners or ())
    assert [p.pid for p in story.players] == list(game.state.players)
    for told in story.players:
        real = game.state.players[told.pid]
        assert (told.role, told.name) == (real.role, real.name)
        assert told.side == game.ruleset.side_of(game, real)
        assert told.won == (told.side in story.winners)
        if real.alive:
            assert told.fate is None
        else:
            assert told.fate is not None and told.fate.cause == real.cause
            assert any(told.fate.when.same_round(r) for r in story.rounds)


@pytest.mark.parametrize(("ruleset", "players", "seed"), GAMES)
def test_each_closed_vote_is_one_round_and_the_banished_left_by_it(
        ruleset: str, players: int, seed: int) -> None:
    game = played(ruleset, players, seed)
    story = story_of(game)
    voted_out = game.ruleset.story(Game(game.ruleset, game.setup)).vote_causes
    assert voted_out, "a day's vote removes somebody in either rule set"
    assert len(story.votes) == len(events(game, "counted"))
    for vote in story.votes:
        assert vote.when.kind == "day"
        voters = [voter for voter, _ in vote.ballots]
        assert len(voters) == len(set(voters))  # one ballot per voter: his last choice
        for pid in vote.removed:
            fate = story.player(pid).fate
            assert fate is not None and fate.cause in voted_out
            assert fate.when.same_round(vote.when)
    banished = [p.pid for p in story.players if p.fate and p.fate.cause in voted_out]
    assert sorted(banished) == sorted(pid for v in story.votes for pid in v.removed)


def test_days_and_nights_alternate_in_play_order() -> None:
    for ruleset, first in (("changelings", "day"), ("alchemists", "night")):
        story = story_of(played(ruleset, 12, 1))
        kinds = [r.kind for r in story.rounds]
        assert kinds[0] == first
        assert all(a != b for a, b in itertools.pairwise(kinds))


def test_the_nights_actions_that_stood_are_revealed() -> None:
    game = played("alchemists", 12, 3)
    story = story_of(game)
    night_one = [a for a in story.actions if a.when.kind == "night" and a.when.number == 1]
    assert night_one, "the first night had actions"
    kills = [a for a in night_one if a.action == "kill"]
    assert all(len(a.targets) == 1 for a in kills)
    roles = {p.pid: p.role for p in story.players}
    assert all(a.action in {spec.id for spec in game.ruleset.roles[roles[a.actor]].actions}
               or a.action in game.ruleset.extra_actions for a in night_one)


def test_lovers_mayors_and_the_stone_follow_the_events() -> None:
    found = {"lovers": False, "mayor": False, "stone": False, "father": False}
    for seed in range(12):
        ch: Story = story_of(played("changelings", 12, seed))
        al_game = played("alchemists", 12, seed)
        al: Story = story_of(al_game)
        lovers = [extra for extra in ch.extras if isinstance(extra, Bond)]
        if lovers:
            found["lovers"] = True
            assert all(bond.first != bond.second and bond.during is None for bond in lovers)
        if holders(ch, MAYORS):
            found["mayor"] = True
        if holders(al, STONE):
            found["stone"] = True
        dealt = Game(al_game.ruleset, al_game.setup).state.players.values()
        father = holders(al, SUCCESSIONS["father"])
        assert father[:1] == [p.pid for p in dealt if p.role == "father"]
        heirs = father[1:]
        assert all(al.player(pid).role == "father" for pid in heirs)
        found["father"] = found["father"] or bool(heirs)
    assert all(found.values()), found
