"""A player's own leaving (`/flee`, cause `left`) takes him out as a host's removal does, by
each rule set's rules [decision]: in the pony game no broken heart follows and the role is
told; in the alchemists' game no `take` of pride's follows and nothing joins the morning's
dead. The departed cannot leave twice; a paused game still lets him go."""

from __future__ import annotations

import pytest

from core.engine import Leave, Pause, Refused, Vote
from core.engine.game import Game, GameSetup
from core.engine.ids import PlayerId
from core.engine.messages import GROUP
from rulesets.alchemists import RULESET as ALCHEMISTS
from rulesets.alchemists.roles import CANONICAL
from rulesets.alchemists.roles.pride import HAS_TAKE, TAKE_TARGET
from rulesets.changelings import RULESET as CHANGELINGS
from rulesets.changelings.flavour import REMOVED

PONIES = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus")


def pony_game() -> Game:
    roles = ("changeling", "changeling", "researcher", "shield", "pony", "pony", "pony")
    return Game(CHANGELINGS, GameSetup(
        "changelings", tuple((name.lower(), name) for name in PONIES), roles=roles,
        options=(("random_lovers", False),), setup=(("lovers", ("fay", "gus")),)))


def alchemist_game() -> Game:
    players = tuple((f"p{i}", f"P{i}") for i in range(len(CANONICAL)))
    options = {"stone_backfire": "never", "missed_vote_votes": 0, "missed_votes_modkill": 0,
               "early_close": False}
    return Game(ALCHEMISTS, GameSetup("alchemists", players, roles=CANONICAL,
                                      options=tuple(options.items())))


def test_a_lover_who_leaves_breaks_no_heart():
    game = pony_game()
    out = game.apply(Leave("fay", at=10))
    assert game.state.players["fay"].cause == "left"
    assert game.state.players["gus"].alive  # CH-LOVE names game effects, not leaving
    told = [m for m in out.messages if m.audience == GROUP]
    assert [m.text.key for m in told] == [m.text.key for m in told if m.text.key in REMOVED["left"]]
    assert told and told[0].text.params["role"].value == "pony"  # the role is told, as for modkill


def test_the_gone_cannot_leave_again():
    game = pony_game()
    game.apply(Leave("fay", at=10))
    with pytest.raises(Refused):
        game.apply(Leave("fay", at=11))
    with pytest.raises(Refused):
        game.apply(Leave("nobody", at=11))


def test_a_paused_game_still_lets_a_player_go():
    game = pony_game()
    game.apply(Pause(at=5))
    game.apply(Leave("bob", at=6))
    assert game.state.players["bob"].cause == "left"
    with pytest.raises(Refused):
        game.apply(Vote("cid", "ann", at=7))  # everything else still waits for the resume


def test_pride_named_for_a_take_is_not_taken_along_by_leaving():
    game = alchemist_game()
    pride = game.state.players["p3"]
    HAS_TAKE.set(pride, True)  # his search found crimson
    TAKE_TARGET.set(pride, PlayerId("p7"))
    out = game.apply(Leave("p3", at=2))
    assert game.state.players["p3"].cause == "left"
    assert all(p.alive for pid, p in game.state.players.items() if pid != "p3")
    assert any(m.text.key == "{name} has left the game." for m in out.messages
               if m.audience == GROUP)
