"""The docs say what the bot says (issue 33): the player rules pages' generated blocks are up to
date with the catalogs (tools/doc_terms.py), each rules page names every role, the game's
title and its key terms in the catalogs' words, and no page of a language uses a variant the
bot has dropped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.i18n import translations
from tools.doc_terms import (
    BLOCK,
    early_button,
    has_early_votes,
    rules_pages,
    stale_pages,
    title,
    words,
)

from ..conftest import ROOT

LANGUAGES = ("en", "de", "ru")
RULES = list(rules_pages())


def pages_in(lang: str) -> list[Path]:
    """The pages a reader of `lang` reads: the host guides, READMEs and rules pages."""
    docs = ROOT / "docs"
    if lang == "en":
        found = [ROOT / "README.md", docs / "hosting.md"]
    else:
        found = sorted((docs / lang).glob("*.md"))
    return found + sorted((docs / "rules").glob(f"*.{lang}.md"))


def prose(page: Path) -> str:
    """A page's own words: without its generated blocks, with line breaks as spaces."""
    return " ".join(BLOCK.sub("", page.read_text(encoding="utf-8")).split())


Msgid = str | tuple[str, str]  # a msgid, or (its context, the msgid)

# A wrong variant (a regular expression) per language, with the rule set and msgid whose
# catalog rendering is the right word: the test first checks that the catalog still says the
# right word and not the wrong one, then that no page of that language uses the wrong one.
FORBIDDEN: dict[str, list[tuple[str, str, Msgid]]] = {
    "ru": [
        (r"Мэр\w* Ду Велл", "changelings", "Mare Do Well"),
        (r"Государственн(ый|ого|ому|ым|ом) Алхимик", "alchemists", "State Alchemist"),
        (r"Королев[а-яё]*+(?!\s+(драмы|улья))", "changelings", "Queen"),
    ],
    "de": [
        (r"\b(das|kein|ein) Love Poison", "changelings", ("role was", "the Love Poison")),
        (r"gebrochenem Herzen", "changelings", "left heartbroken"),
        (r"Bürgermeister", "changelings", "mayor election"),
        (r"Meine Stimme gilt vorzeitig|vorzeitige Stimme", "core", "My vote is early"),
        (r"\bStaatsalchemist\b“", "alchemists", "on the town's side"),
        (r"Teamchat|Teamraum", "core", "Team chat"),
    ],
    "en": [
        (r"died of a broken heart", "changelings", "left heartbroken"),
        (r'"a State Alchemist"', "alchemists", "on the town's side"),
    ],
}


def said(ruleset_id: str, lang: str, msgid: Msgid) -> str:
    catalog = translations(lang) if ruleset_id == "core" else translations(lang, ruleset_id)
    return catalog.gettext(msgid) if isinstance(msgid, str) else catalog.pgettext(*msgid)


def test_the_generated_blocks_are_up_to_date():
    stale = [str(page.relative_to(ROOT)) for page in stale_pages()]
    assert not stale, f"run tools/doc_terms.py: {stale}"


@pytest.mark.parametrize(("page", "ruleset_id", "lang"), RULES,
                         ids=[page.name for page, _, _ in RULES])
def test_every_rules_page_has_the_bots_words(page, ruleset_id, lang):
    text = page.read_text(encoding="utf-8")
    assert {kind for _, kind, _, _ in BLOCK.findall(text)} == {"causes", "glossary"}
    own = prose(page)
    missing = [role for role in words(ruleset_id, lang, "role") if role not in own]
    assert not missing, f"{page.name} never names {missing}"
    assert title(ruleset_id, lang) in own
    if has_early_votes(ruleset_id):
        assert early_button(lang) in own


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_host_guide_names_every_game_by_its_title(lang):
    guide = ROOT / "docs" / ("hosting.md" if lang == "en" else f"{lang}/README.md")
    for ruleset_id in {ruleset_id for _, ruleset_id, _ in RULES}:
        assert title(ruleset_id, lang) in prose(guide), (guide, ruleset_id)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_uses_a_variant_the_bot_dropped(lang):
    found = []
    for pattern, ruleset_id, msgid in FORBIDDEN[lang]:
        right = said(ruleset_id, lang, msgid)
        assert lang == "en" or right not in msgid, f"{msgid} is untranslated in {lang}"
        assert not re.search(pattern, right), f"the catalog itself says {right!r}"
        for page in pages_in(lang):
            for match in re.finditer(pattern, prose(page)):
                found.append(f"{page.relative_to(ROOT)}: {match.group(0)!r} (the bot: {right!r})")
    assert not found, "\n".join(found)
