"""/roles and /role speak to the group: each alchemist role in the third person (its
`about`), in every language, while the private card keeps addressing its player."""

from __future__ import annotations

import re

import pytest

from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.service.telling.settings_view import role_line

YOU = {"en": re.compile(r"\byou\b|\byour\b", re.I),
       "de": re.compile(r"\b(du|dein\w*|dich|dir)\b", re.I),
       "ru": re.compile(r"(?<!\w)(ты|тебя|тебе|твой|твоя|твоё|твои)(?!\w)", re.I)}


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
def test_the_group_reads_every_alchemist_role_in_the_third_person(locale):
    ruleset = load_ruleset("alchemists")
    renderer = Renderer(locale, ruleset.vocabulary, str, ruleset="alchemists")
    for role_id in ruleset.roles:
        line = role_line(ruleset, role_id)
        assert "about" in repr(line), line  # not the card
        about = renderer.text(ruleset.vocabulary["about"][role_id])
        card = renderer.text(ruleset.vocabulary["card"][role_id])
        assert not YOU[locale].search(about), (role_id, about)
        assert YOU[locale].search(card), (role_id, card)
