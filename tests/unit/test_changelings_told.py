"""What the pony game tells its players where a scenario's `told` facts cannot see it (issue
27, problem 9): a message that names nobody, and the words and plural forms of a count."""

from __future__ import annotations

import pytest

from core.engine import GameSetup
from core.engine.game import Game
from core.engine.messages import GROUP, Text
from core.i18n import Renderer
from core.scenario import run_file
from rulesets.changelings import RULESET as CHANGELINGS

from ..conftest import SCENARIOS

TOLD = SCENARIOS / "changelings"
TEAM = ("[to Ann]", "[to Bob]")


def team_lines(name: str) -> list[str]:
    result = run_file(TOLD / f"{name}.yaml", show=True)
    assert result.passed, result.reason
    return [line for line in result.transcript if line.startswith(TEAM)]


def test_a_turned_confused_tells_the_changelings_what_a_shield_does() -> None:
    """CH-CONF [revised]: the researcher's check of the confused changeling stops the
    changelings' abduction; they read exactly what they read when the shield stops it (the
    two files are the same table with the researcher's and the shield's targets swapped), so
    nothing betrays the check."""
    shielded = team_lines("told_team_plan_stopped_by_shield")
    turned = team_lines("told_team_plan_stopped_by_turn")
    assert any("Eve" in line for line in shielded)  # they did plot, and heard each other
    assert turned == shielded


ROLES = ("queen", "liar", "changeling", "confused_changeling", "stalker", "researcher",
         "pony", "pony", "pony", "pony")


def start_count(lang: str) -> str:
    players = tuple((f"p{i}", f"P{i}") for i in range(len(ROLES)))
    game = Game(CHANGELINGS, GameSetup("changelings", players, roles=ROLES,
                                       options=(("random_lovers", False),)))
    counts = [m.text for m in game.opening.messages
              if m.audience == GROUP and m.text.key.startswith("Careful")]
    assert len(counts) == 1
    return Renderer(lang, CHANGELINGS.vocabulary, game.name, ruleset="changelings"
                    ).render(counts[0])


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Careful, everypony: three changelings are hiding among you!"),
    ("de", "Aufgepasst, liebe Ponys: drei Changelinge verstecken sich unter euch!"),
    ("ru", "Осторожно, всепони: среди вас прячутся три чейнджлинга!"),
])
def test_the_start_post_says_how_many_changelings_play(lang: str, said: str) -> None:
    """Rules §2 [revised]: the queen and the liar are counted, the confused changeling (on
    a pony's seat) is not."""
    assert start_count(lang) == said


@pytest.mark.parametrize(("lang", "count", "said"), [
    ("en", 1, "Careful, everypony: one changeling is hiding among you!"),
    ("en", 4, "Careful, everypony: four changelings are hiding among you!"),
    ("de", 1, "Aufgepasst, liebe Ponys: Ein Changeling versteckt sich unter euch!"),
    ("de", 2, "Aufgepasst, liebe Ponys: zwei Changelinge verstecken sich unter euch!"),
    ("ru", 1, "Осторожно, всепони: среди вас прячется один чейнджлинг!"),
    ("ru", 2, "Осторожно, всепони: среди вас прячутся два чейнджлинга!"),
    ("ru", 4, "Осторожно, всепони: среди вас прячутся четыре чейнджлинга!"),
    ("ru", 5, "Осторожно, всепони: среди вас прячутся пять чейнджлингов!"),
    ("ru", 21, "Осторожно, всепони: среди вас прячется 21 чейнджлинг!"),
])
def test_the_changelings_count_agrees_with_its_number(lang: str, count: int, said: str) -> None:
    key = "Careful, everypony: {count:w} changeling is hiding among you!"
    plural = "Careful, everypony: {count:w} changelings are hiding among you!"
    text = Text(key, {"count": count}, plural, count)
    assert Renderer(lang, CHANGELINGS.vocabulary, str, ruleset="changelings"
                    ).render(text) == said
