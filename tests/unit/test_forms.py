"""Every role- and side-bearing template, rendered with every role and side of every rule set
in each language, in the form its placeholder asks (core/engine/forms.py): no exception, no
unfilled placeholder, no raw id, and the words of that form, not of another."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from core.engine.forms import CONTEXTS, RoleForm, SideForm
from core.engine.messages import Ref
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.simulate import play_random_game
from core.story import story_of
from core.story.summary import summary_texts
from core.story.texts import Words

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("changelings", "alchemists")
LOCALES = ("en", "de", "ru")
# a placeholder that names a role or a side -> the forms the code may fill it with
ASKED: dict[str, tuple[str, ...]] = {
    "role": (RoleForm.NAME, RoleForm.WAS), "role_whom": (RoleForm.WHOM,),
    "side": (SideForm.NAME, SideForm.LABEL), "side_with": (SideForm.WITH,),
    "sides": (SideForm.THE,),
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
NAMES = {"p1": "Ann"}


def templates(domain: Path) -> Iterator[tuple[str, str | None, int | None]]:
    """The domain's role- or side-bearing msgids (singular, plural) as the template has them."""
    with next(domain.glob("*.pot")).open("rb") as fh:
        for message in read_po(fh):
            if not message.id or message.context in CONTEXTS.values():
                continue
            one, many = ((message.id, None) if isinstance(message.id, str) else message.id)
            if set(PLACEHOLDER.findall(one + (many or ""))) & ASKED.keys():
                yield one, many, (None if many is None else 1)


def filling(name: str) -> str | int | Ref:
    return {"name": Ref("player", "p1"), "actor": Ref("player", "p1"),
            "partner": Ref("player", "p1")}.get(name, 3 if name in ("count", "number") else "x")


def cases(ruleset: str) -> Iterator[tuple[str, str, str]]:
    """(placeholder, form, id): every role and side of `ruleset` in every form asked."""
    rs = load_ruleset(ruleset)
    for placeholder, forms in ASKED.items():
        ids = sorted(rs.roles) if placeholder.startswith("role") else sorted(rs.sides)
        for form in forms:
            for id_ in ids:
                yield placeholder, form, id_


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_template_renders_every_role_and_side_in_the_form_it_asks(ruleset, locale):
    rs = load_ruleset(ruleset)
    renderer = Renderer(locale, rs.vocabulary, NAMES.__getitem__, ruleset=ruleset)
    domains = (ROOT / "rulesets" / ruleset / "locales", ROOT / "locales")
    problems: list[str] = []
    rendered = 0
    for domain in domains:
        for one, many, count in templates(domain):
            fields = set(PLACEHOLDER.findall(one + (many or "")))
            base = {f: filling(f) for f in fields}
            said = set(re.findall(r"\w+", (one + (many or "")).lower()))  # "drama queen"
            for placeholder, form, id_ in cases(ruleset):
                if placeholder not in fields:
                    continue
                ref = Ref(form, id_)
                value = (ref,) if placeholder == "sides" else ref
                text = renderer.render_parts(one, many, count, {**base, placeholder: value})
                word = renderer.word(ref)
                rendered += 1
                if "{" in text or "}" in text:
                    problems.append(f"unfilled: {text!r}")
                elif id_ in re.findall(r"\w+", text.replace(word, "")) and id_ not in said:
                    problems.append(f"raw id {id_!r}: {text!r}")
                elif word not in text:
                    problems.append(f"{form} {id_} ({word!r}) not in {text!r}")
    assert rendered > 500
    assert not problems, problems[:5]


@pytest.mark.parametrize("locale", ("de", "ru"))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_role_and_side_has_each_form_translated(ruleset, locale):
    """A form is a text of its own: each language supplies it, none falls back to English."""
    rs = load_ruleset(ruleset)
    renderer = Renderer(locale, rs.vocabulary, NAMES.__getitem__, ruleset=ruleset)
    english = Renderer("en", rs.vocabulary, NAMES.__getitem__, ruleset=ruleset)
    untranslated = [(form, id_) for _, form, id_ in cases(ruleset)
                    if renderer.word(Ref(form, id_)) == english.word(Ref(form, id_))
                    and renderer.word(Ref(form, id_)).isascii()
                    and english.word(Ref(form, id_)) != rs.vocabulary["role"].get(id_)]
    assert not untranslated, untranslated


def test_german_forms_agree_with_their_use():
    """The accusative after a verb, the article in running text, a loner labelled a loner."""
    ch = Renderer("de", load_ruleset("changelings").vocabulary, NAMES.__getitem__,
                  ruleset="changelings")
    al = Renderer("de", load_ruleset("alchemists").vocabulary, NAMES.__getitem__,
                  ruleset="alchemists")
    assert ch.word(Ref(RoleForm.WAS, "researcher")) == "der Forscher"
    assert ch.word(Ref(RoleForm.WHOM, "researcher")) == "den Forscher"
    assert ch.word(Ref(SideForm.THE, "ponies")) == "die Ponys"
    assert al.word(Ref(SideForm.WITH, "homunculi")) == "auf der Seite der Homunculi"
    assert al.word(Ref(SideForm.LABEL, "greed")) == "Einzelgänger"
    assert al.word(Ref(SideForm.LABEL, "town")) == al.word(Ref(SideForm.NAME, "town"))
    ru = Renderer("ru", load_ruleset("alchemists").vocabulary, NAMES.__getitem__,
                  ruleset="alchemists")
    assert ru.word(Ref(SideForm.LABEL, "crimson")) == "одиночка"


def test_the_story_labels_a_loner_a_loner_and_names_the_winners_with_their_article():
    """The summary's "Ida war der Ishvalit (Einzelgänger)", never "(Ishvalit)"; the winners'
    line "Sieger: die Ponys.", never the bare plural."""
    loners = {"ishvalan", "crimson", "greed"}
    for ruleset in RULESETS:
        for seed in range(4):
            story = story_of(play_random_game(load_ruleset(ruleset), 12, seed))
            words = Words(story, "de")
            lines = [words.renderer.render(text) for text in summary_texts(story)[0]]
            for p, line in zip(story.players, lines, strict=True):
                if p.side in loners:
                    assert "(Einzelgänger)" in line, line
            said = words.winners()
            for side_id in story.winners:
                assert words.word(SideForm.THE, side_id) in said, said
            if story.winners:
                assert said.startswith("Sieger: d"), said
