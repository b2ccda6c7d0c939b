"""What a window asks of whom (the keyboards a player is offered when it opens)."""

from __future__ import annotations

from core.engine import Act, Close, Game, GameSetup
from core.engine.registry import load_ruleset
from rulesets.changelings.voice import OWN

CHANGELINGS = load_ruleset("changelings")


def test_the_love_poison_who_chose_at_dusk_is_not_asked_again_at_dawn():
    names = ("Ann", "Bob", "Lov", "Pin", "Eve", "Fay", "Gus")
    roles = ("changeling", "changeling", "love_poison", "pinkie_sense", "pony", "pony", "pony")
    game = Game(CHANGELINGS, GameSetup(
        "changelings", tuple((f"p{i + 1}", n) for i, n in enumerate(names)), roles=roles,
        options=(("random_lovers", False), ("early_close", True)), start="night 1 dusk"))
    game.apply(Act("p3", "love", ("p5", "p6")))
    game.apply(Act("p1", "abduct", ("p7",)))
    game.apply(Close())
    assert str(game.state.phase) == "night 1 dawn"
    assert [s.id for s in CHANGELINGS.prompted(game, game.state.players["p3"])] == []
    assert [s.id for s in CHANGELINGS.prompted(game, game.state.players["p4"])] != []
    game.apply(Act("p4", "pass"))  # the dawn closes once pinkie is done: love counts
    assert str(game.state.phase) == "day 2 vote"
    assert game.state.players["p5"].statuses >= {"lover"}


def test_the_new_mayor_is_announced_after_the_old_mayors_abduction():
    names = ("Ann", "Bob", "May", "Dot", "Eve", "Fay", "Gus")
    roles = ("changeling", "changeling", "pony", "pony", "pony", "pony", "pony")
    game = Game(CHANGELINGS, GameSetup(
        "changelings", tuple((f"p{i + 1}", n) for i, n in enumerate(names)), roles=roles,
        options=(("random_lovers", False), ("early_close", False)), setup=(("mayor", "p3"),),
        start="night 1 dusk"))
    game.apply(Act("p1", "abduct", ("p3",)))
    game.apply(Act("p2", "abduct", ("p3",)))
    game.apply(Close())
    morning = game.apply(Close())
    assert str(game.state.phase) == "day 2 vote"
    keys = [m.text.key for m in morning.messages]
    new_mayor = next(i for i, key in enumerate(keys) if key in OWN["NEW_MAYOR"])
    abducted = next(i for i, m in enumerate(morning.messages)
                    if m.text.params.get("name") == ("player", "p3") and i != new_mayor)
    assert abducted < new_mayor
