"""Team chats and forwarding (`Whisper`): the rule set decides who hears a private message;
nobody else ever receives it."""

from __future__ import annotations

import pytest

from core.engine import Act, Close, GameSetup, Modkill, Refused, Whisper
from core.engine.game import Game
from rulesets.alchemists import RULESET as ALCHEMISTS
from rulesets.alchemists.roles import CANONICAL
from rulesets.changelings import RULESET as CHANGELINGS


def recipients(outcome) -> set[str]:
    return {m.audience.ref for m in outcome.messages if m.text.key == "{name} whispers: {text}"}


def changelings_game() -> Game:
    roles = ("changeling", "changeling", "queen", "researcher", "pony", "pony", "pony", "pony")
    players = tuple((f"p{i}", f"P{i}") for i in range(len(roles)))
    return Game(CHANGELINGS, GameSetup("changelings", players, roles=roles,
                                       options=(("random_lovers", False),)))


def test_a_changeling_reaches_exactly_the_other_changelings():
    game = changelings_game()
    assert recipients(game.apply(Whisper("p0", "Eve tonight?"))) == {"p1", "p2"}


def test_a_pony_has_no_team_chat_and_the_refusal_changes_nothing():
    game = changelings_game()
    before = game.snapshot()
    with pytest.raises(Refused):
        game.apply(Whisper("p3", "hello"))
    assert game.snapshot() == before


def alchemists_game() -> Game:
    players = tuple((f"p{i}", role.title()) for i, role in enumerate(CANONICAL))
    return Game(ALCHEMISTS, GameSetup("alchemists", players, roles=CANONICAL))


def test_a_homunculus_reaches_only_father_and_father_answers_one_named_homunculus():
    game = alchemists_game()  # p0 father, p1 lust, p2 envy, p3 pride, p6 greed
    assert recipients(game.apply(Whisper("p1", "kill p12"))) == {"p0"}
    with pytest.raises(Refused):
        game.apply(Whisper("p1", "psst", to="p2"))  # homunculi cannot reach each other
    with pytest.raises(Refused):
        game.apply(Whisper("p0", "whom?"))  # father must name the homunculus
    assert recipients(game.apply(Whisper("p0", "yes", to="p2"))) == {"p2"}
    with pytest.raises(Refused):
        game.apply(Whisper("p0", "hi greed", to="p6"))


def test_xing_and_bodyguard_share_a_chat_and_the_absorbed_reach_their_absorber():
    game = alchemists_game()  # p6 greed, p7 xing, p8 bodyguard
    assert recipients(game.apply(Whisper("p7", "check p0?"))) == {"p8"}
    game.apply(Act("p6", "search", ("p7",)))
    game.apply(Close())
    assert not game.state.players["p7"].alive
    assert recipients(game.apply(Whisper("p7", "you monster"))) == {"p6"}
    assert recipients(game.apply(Whisper("p6", "quiet", to="p7"))) == {"p7"}


def chats(game: Game) -> dict[str, tuple[str, ...]]:
    """The team chats (rooms, where a platform has them) that have members now."""
    return {c.key: c.members for c in game.ruleset.team_chats(game) if c.members}


def test_the_changelings_room_follows_the_living_changelings_and_the_dead_watch_together():
    game = changelings_game()
    assert chats(game) == {"changelings": ("p0", "p1", "p2")}
    game.apply(Modkill("p1"))
    game.apply(Modkill("p4"))
    assert chats(game) == {"changelings": ("p0", "p2"), "spectators": ("p1", "p4")}


def test_the_homunculi_get_their_nest_only_when_father_and_pride_are_gone():
    game = alchemists_game()  # p0 father, p1 lust, p2 envy, p3 pride, p7 xing, p8 bodyguard
    assert chats(game) == {"guard": ("p7", "p8")}
    game.apply(Modkill("p0"))  # pride becomes father: still no nest
    assert "homunculi" not in chats(game)
    game.apply(Modkill("p3"))
    assert chats(game)["homunculi"] == ("p1", "p2")
    assert chats(game)["spectators-homunculi"] == ("p0", "p3")


def test_the_absorbed_talk_with_their_absorber_instead_of_watching_with_the_dead():
    game = alchemists_game()  # p6 greed absorbs p7 xing; p8 bodyguard becomes xing
    game.apply(Act("p6", "search", ("p7",)))
    game.apply(Close())
    found = chats(game)
    assert found["guard"] == ("p8",)
    assert found["absorbed-p7"] == ("p6", "p7")
    assert "spectators-town" not in found
    game.apply(Modkill("p6"))  # the absorber is gone: the absorbed join the dead
    found = chats(game)
    assert "absorbed-p7" not in found
    assert found["spectators-town"] == ("p7",)
    assert found["spectators-loners"] == ("p6",)
