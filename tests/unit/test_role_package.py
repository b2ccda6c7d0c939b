"""A role from a package of its own (tests/fixtures/gossip, the changelings' Gossip): installed
by pip into a folder of its own, it joins the rule set through its `nightfall.roles` entry point
alone, is dealt, acts at its night step, and its morning news is told from its own catalog, in
English, German and Russian. Without the package the rule set does not know the role.

A rule set learns its roles once, when it is imported; so the game with the package installed
is played by a Python of its own (`gossip_game`, run with the package's folder on its path),
and this process stays as a checkout without the package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.engine import GROUP, Act, Close, Game, GameSetup, Refused, SetupError
from core.engine.messages import Ref, player
from core.engine.registry import load_ruleset
from core.i18n import Renderer

from ..conftest import ROOT
from ..packages import pip_installed

PACKAGE = ROOT / "tests" / "fixtures" / "gossip"
NAMES = {"p0": "Ann", "p1": "Bob", "p2": "Cid", "p3": "Dot", "p4": "Eve", "p5": "Fay",
         "p6": "Gus", "p7": "Hal"}
ROLES = ("changeling", "changeling", "gossip", "pony", "pony", "pony", "pony", "pony")
LOCALES = ("en", "de", "ru")


def new_game() -> Game:
    """Ann and Bob are the changelings, Cid the Gossip; the game starts at night 1."""
    setup = GameSetup("changelings", tuple(NAMES.items()), roles=ROLES,
                      options=(("random_lovers", False), ("early_close", False)),
                      start="night 1")
    return Game(load_ruleset("changelings"), setup)


def gossip_game() -> dict[str, Any]:
    """Played with the package installed: what the rule set knows of the Gossip, and what the
    game told, rendered in each language."""
    ruleset = load_ruleset("changelings")
    game = new_game()
    cid = game.state.players["p2"]
    offered = [spec.id for spec in ruleset.offers(game, cid)]
    game.apply(Act("p2", "gossip", ("p0",)))  # Cid gossips about Ann ...
    game.apply(Act("p0", "abduct", ("p5",)))  # ... who is out abducting Fay tonight
    game.apply(Act("p1", "abduct", ("p5",)))
    dusk = game.apply(Close())
    dawn = game.apply(Close())
    while game.state.phase.stage != "dusk":  # on to the next night
        game.apply(Close())
    try:
        game.apply(Act("p2", "gossip", ("p3",)))
        again = "accepted"
    except Refused as refused:
        again = refused.text.key
    group = [m.text for m in dawn.messages if m.audience == GROUP]
    told: dict[str, Any] = {}
    for locale in LOCALES:
        renderer = Renderer(locale, ruleset.vocabulary, NAMES.__getitem__, ruleset="changelings")
        told[locale] = {"morning": [renderer.render(text) for text in group],
                        "role_was": renderer.word(Ref("role_was", "gossip")),
                        "again": renderer.text(again)}
    return {
        "listed_last": list(ruleset.roles)[-1],
        "offered": offered,
        "gossip_at_dusk": [e.data for e in dusk.events if e.kind == "gossiped"],
        "gossip_at_dawn": [e.data for e in dawn.events if e.kind == "gossiped"],
        "told_keys": [(text.key, dict(text.params)) for text in group],
        "told": told,
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package as pip installs it, into a folder of its own."""
    return pip_installed(PACKAGE, tmp_path_factory)


@pytest.fixture(scope="module")
def played(site: Path) -> dict[str, Any]:
    code = ("import json; from tests.unit.test_role_package import gossip_game; "
            "print(json.dumps(gossip_game()))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(site), str(ROOT)))}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_rule_set_takes_the_role_from_its_entry_point(played):
    assert played["listed_last"] == "gossip"  # after the rule set's own roles
    assert played["offered"] == ["gossip", "pass"]


def test_the_gossip_finds_out_at_the_end_of_the_night(played):
    assert played["gossip_at_dusk"] == []
    assert played["gossip_at_dawn"] == [{"gossip": "p2", "target": "p0", "out": True}]
    assert ["The Gossip whispers all over town: {name} was out last night!",
            {"name": list(player("p0"))}] in played["told_keys"]


def test_the_morning_news_is_told_from_the_roles_own_catalog(played):
    english, german, russian = (played["told"][locale] for locale in LOCALES)
    assert "The Gossip whispers all over town: Ann was out last night!" in english["morning"]
    assert "Das Klatschmaul tuschelt in ganz Ponyville: Ann war heute Nacht unterwegs!" \
        in german["morning"]
    assert "Сплетница шепчет на каждом углу: Ann этой ночью где-то пропадал(а)!" \
        in russian["morning"]
    # the rule set's own texts of the same morning are still its own catalog's
    assert any("Fay" in line and line not in english["morning"] for line in german["morning"])


def test_running_text_names_the_role_with_its_article(played):
    assert [played["told"][locale]["role_was"] for locale in LOCALES] == [
        "the Gossip", "das Klatschmaul", "Сплетница"]


def test_the_gossip_gossips_once_a_game(played):
    assert played["told"]["en"]["again"] == "You have spread your gossip already."
    assert played["told"]["de"]["again"] == "Du hast deinen Klatsch schon verbreitet."


def test_without_the_package_the_rule_set_does_not_know_the_role():
    ruleset = load_ruleset("changelings")
    assert "gossip" not in ruleset.roles and "gossip" not in ruleset.action_ids()
    with pytest.raises(SetupError):
        new_game()
