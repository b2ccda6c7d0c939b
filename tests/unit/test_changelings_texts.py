"""The pony game's texts as issue 18 asks for them: a removal names the role inside its
sentence (never a "Role: X." label tacked on), the group reads about roles in the third
person, and every prompt read night after night has three ways to say it."""

from __future__ import annotations

import re
from string import Formatter

import pytest

from core.engine import Act, Close, GameSetup
from core.engine.game import Game
from core.engine.ids import PlayerId
from core.engine.messages import ToPlayer, role
from core.i18n import Renderer, translations
from rulesets.changelings import RULESET as CHANGELINGS
from rulesets.changelings.flavour import REMOVED
from rulesets.changelings.hooks import ROLE_ABOUT, ROLE_CARDS
from rulesets.changelings.voice import OWN, VOICE

LABELS = re.compile(r"(was|war|Rolle|Роль|Карты на стол|Роль раскрыта)\s*:\s*\{role(_whom)?\}")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


REMOVAL_LINES = [text for variants in REMOVED.values() for text in variants]


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_a_removal_names_the_role_inside_its_sentence(lang: str) -> None:
    t = translations(lang, "changelings")
    for text in REMOVAL_LINES:
        said = t.gettext(text)
        assert {"name"} < fields(said) <= {"name", "role", "role_whom"}, said
        assert len(fields(said) & {"role", "role_whom"}) == 1, said  # one form of the role
        assert not LABELS.search(said), said


def test_the_group_reads_about_roles_in_the_third_person() -> None:
    for role_id, about in ROLE_ABOUT.items():
        if role_id == "night_owl":  # the template's example role has only its card
            continue
        assert about != ROLE_CARDS[role_id] and not about.startswith("You"), about


@pytest.mark.parametrize("prompts", [VOICE, OWN], ids=["core prompts", "own prompts"])
def test_every_prompt_has_three_ways_with_the_same_placeholders(prompts: dict) -> None:
    for name, variants in prompts.items():
        assert len(variants) >= 3, name
        assert all(fields(v) == fields(variants[0]) for v in variants), name


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "From now on, the Researcher sees you as the Stalker."),
    ("de", "Für den Forscher bist du ab jetzt der Stalker."),
    ("ru", "Для Исследователя ты теперь — Сталкер."),
])
def test_the_liar_is_told_his_fake_role_inside_a_sentence(lang: str, said: str) -> None:
    roles = ("liar", "changeling", "researcher", "pony", "pony", "pony", "pony", "pony")
    players = tuple((f"p{i}", f"P{i}") for i in range(len(roles)))
    game = Game(CHANGELINGS, GameSetup("changelings", players, roles=roles, start="night 1 dusk",
                                       options=(("random_lovers", False),)))
    game.apply(Act("p0", "fake", (), role="stalker"))
    [text] = [m.text for m in game.apply(Close()).messages
              if m.audience == ToPlayer(PlayerId("p0")) and "role" in m.text.params]
    assert text.params["fake"] == role("stalker")  # the plain role fact, for `told`
    assert Renderer(lang, CHANGELINGS.vocabulary, game.name, ruleset="changelings"
                    ).render(text) == said
