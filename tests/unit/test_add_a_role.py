"""Adding a role touches only its module (docs/extending.md: adding a role): a copy of the
Changelings package under a new name gets one new module written from `roles/_template.py`,
and a game of the copy deals, offers, checks and plays the new role at its night step — while
the original rule set stays as it was."""

from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from core.engine import Act, Close, GameSetup, Refused
from core.engine.game import Game, Outcome
from core.engine.messages import Ref, player
from rulesets import changelings

PACKAGE = "changelings_with_owl"


@pytest.fixture
def copy_with_owl(tmp_path: Path) -> Iterator[ModuleType]:
    source = Path(changelings.__file__).parent
    target = tmp_path / PACKAGE
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    template = (target / "roles" / "_template.py").read_text(encoding="utf-8")
    (target / "roles" / "night_owl.py").write_text(template.replace("new_role", "night_owl"),
                                                   encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def owl_game(package: ModuleType) -> Game:
    roles = ("changeling", "changeling", "night_owl", "pony", "pony", "pony", "pony", "pony")
    players = tuple((f"p{i}", f"P{i}") for i in range(len(roles)))
    options = (("random_lovers", False), ("early_close", False))
    return Game(package.RULESET, GameSetup("changelings", players, roles=roles, options=options,
                                           start="night 1"))


def told(outcome: Outcome, pid: str) -> list[tuple[str, dict[str, object]]]:
    return [(m.text.key, dict(m.text.params)) for m in outcome.messages if m.audience.ref == pid]


def test_the_new_module_is_all_it_takes(copy_with_owl: ModuleType) -> None:
    ruleset = copy_with_owl.RULESET
    assert "night_owl" in ruleset.roles and "watch" in ruleset.action_ids()
    assert ruleset.vocabulary["role"]["night_owl"] == "Night Owl"
    assert ruleset.vocabulary["action"]["watch"] == "Watch"
    assert "night_owl" not in changelings.RULESET.roles  # the original is untouched
    # imported after the rules' roles: listed last, and last at the step it shares
    assert list(ruleset.roles)[-1] == "night_owl"
    night = importlib.import_module(f"{PACKAGE}.night")
    step = night.NIGHT.handlers(night.NightStep.LOVE_POISON)
    assert [handler.__module__ for handler in step][-1] == f"{PACKAGE}.roles.night_owl"


def test_the_new_role_is_dealt_offered_and_acts_at_its_step(copy_with_owl: ModuleType) -> None:
    game = owl_game(copy_with_owl)
    owl = game.state.players["p2"]
    assert [spec.id for spec in game.ruleset.offers(game, owl)] == ["watch", "pass"]
    with pytest.raises(Refused):
        game.apply(Act("p2", "watch", ("p2",)))  # the spec's self_ok=False
    game.apply(Act("p2", "watch", ("p0",)))
    game.apply(Act("p0", "abduct", ("p5",)))
    game.apply(Act("p1", "abduct", ("p5",)))
    dusk = game.apply(Close())
    assert not [e for e in dusk.events if e.kind == "watched"]  # the owl acts at dawn's end
    dawn = game.apply(Close())
    assert ("{name} was out and about tonight.", {"name": player("p0")}) in told(dawn, "p2")
    assert [e.data for e in dawn.events if e.kind == "watched"] == [
        {"owl": "p2", "target": "p0", "busy": True}]
    assert not game.state.players["p5"].alive  # the rest of the night went on as before


def test_the_new_role_is_told_its_card(copy_with_owl: ModuleType) -> None:
    game = owl_game(copy_with_owl)
    dealt = [m.text.params.get("dealt") for m in game.opening.messages
             if m.audience.ref == "p2"]
    assert Ref("dealt", "night_owl") in dealt  # with the role's name, in one message
    assert copy_with_owl.RULESET.vocabulary["dealt"]["night_owl"].startswith(
        "You are the Night Owl.")
