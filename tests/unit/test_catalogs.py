"""The translation catalogs: complete, compilable, in step with the code, and faithful to each
message's placeholders and plural forms."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from core.i18n import LOCALES_DIR

from ..conftest import ROOT

LANGUAGES = ["de", "ru"]
PLURAL_FORMS = {"de": 2, "ru": 3}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(lang: str):
    with (LOCALES_DIR / lang / "LC_MESSAGES" / "nightfall.po").open("rb") as fh:
        return read_po(fh, locale=lang)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[str]:
    """The messages the code holds now, extracted exactly as `make messages` does."""
    pot = tmp_path_factory.mktemp("pot") / "nightfall.pot"
    babel = Path(sys.executable).parent / "pybabel"
    subprocess.run([str(babel), "extract", "-F", "babel.cfg", "-k", "N_", "-k", "tell_n:2,3",
                    "-k", "refused_n:1,2", "-k", "SetupError", "-k", "n_:1,2", "--no-location",
                    "-o", str(pot),
                    "."], cwd=ROOT, check=True, capture_output=True)
    with pot.open("rb") as fh:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_parses_and_compiles(lang):
    buffer = io.BytesIO()
    write_mo(buffer, catalog(lang))
    assert buffer.getvalue()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nothing_is_untranslated_or_fuzzy(lang):
    missing = []
    for message in catalog(lang):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            missing.append(message.id)
    assert not missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_matches_the_code(lang, extracted):
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog(lang) if m.id}
    assert not extracted - known, f"missing from {lang}: {sorted(extracted - known)[:5]}"
    assert not known - extracted, f"stale in {lang}: {sorted(known - extracted)[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_and_plural_forms_agree(lang):
    problems = []
    for message in catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if isinstance(message.id, tuple) and len(strings) != PLURAL_FORMS[lang]:
            problems.append(("plural forms", ids[0]))
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for text in strings:
            found = set(PLACEHOLDER.findall(text))
            if found - wanted or wanted - found - {"count"}:
                problems.append(("placeholders", ids[0]))
    assert not problems


def test_every_translation_formats_with_the_sources_parameters():
    for lang in LANGUAGES:
        for message in catalog(lang):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            params = {name: "x" for name in PLACEHOLDER.findall(" ".join(ids))}
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in strings:
                text.format(**params)
