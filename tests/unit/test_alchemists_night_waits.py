"""Who an Alchemists night still waits for (rules §3, revised): each of a player's night
actions or his pass — the early close and the reminders ask the same question."""

from __future__ import annotations

from core.engine import Act, GameSetup
from core.engine.game import Game
from rulesets.alchemists import RULESET as ALCHEMISTS
from rulesets.alchemists.roles import CANONICAL

# p0 father, p1 lust, p2 envy, p3 pride, p4 ishvalan, p5 crimson, p6 greed, p7 xing,
# p8 bodyguard, p9 linker, p10 crystal, p11-p14 alchemists (the bodyguard and the alchemists
# have no night action)
ACTORS = {f"p{i}" for i in range(11)} - {"p8"}


def game() -> Game:
    players = tuple((f"p{i}", f"P{i}") for i in range(len(CANONICAL)))
    return Game(ALCHEMISTS, GameSetup("alchemists", players, roles=CANONICAL,
                                      options=(("early_close", False),)))


def test_lust_is_waited_for_until_she_has_sent_her_request_and_her_block():
    g = game()
    assert set(ALCHEMISTS.waiting_for(g)) == ACTORS
    g.apply(Act("p1", "request", ("p12",)))
    assert "p1" in ALCHEMISTS.waiting_for(g)
    g.apply(Act("p1", "block", ("p7",)))
    assert "p1" not in ALCHEMISTS.waiting_for(g)


def test_a_pass_covers_every_night_action_of_the_player():
    g = game()
    g.apply(Act("p2", "copy", ("p10", "p2")))
    assert "p2" in ALCHEMISTS.waiting_for(g)  # envy's request is missing
    g.apply(Act("p2", "pass"))
    assert "p2" not in ALCHEMISTS.waiting_for(g)
    assert not ALCHEMISTS.window_complete(g)
    for pid in sorted(ACTORS - {"p2"}):
        g.apply(Act(pid, "pass"))
    assert ALCHEMISTS.window_complete(g)
    assert ALCHEMISTS.waiting_for(g) == []
