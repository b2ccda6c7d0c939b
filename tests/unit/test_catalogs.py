"""The translation catalogs: complete, compilable, in step with the code, and faithful to each
message's placeholders and plural forms."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from core.engine.messages import Text
from core.engine.registry import available, load_ruleset
from core.i18n import DOMAIN, LOCALES_DIR, ONE, Renderer
from tools.form_texts import add_form_texts
from tools.one_texts import add_one_texts

from ..conftest import ROOT

LANGUAGES = ["de", "ru"]
PLURAL_FORMS = {"de": 2, "ru": 3}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
KEYWORDS = ["-k", "N_", "-k", "NC_:1c,2", "-k", "tell_n:2,3", "-k", "refused_n:1,2",
            "-k", "SetupError", "-k", "n_:1,2"]


def domains() -> dict[str, tuple[Path, list[Path]]]:
    """Every gettext domain: its catalogs' folder and the code its messages come from (the
    core's from core/ and adapters/, each installed rule set's from its package)."""
    found = {DOMAIN: (LOCALES_DIR, [ROOT / "core", ROOT / "adapters"])}
    for ruleset_id in sorted(available()):
        ruleset = load_ruleset(ruleset_id)
        assert ruleset.locales_dir is not None, f"{ruleset_id} ships no catalogs"
        found[ruleset.domain or ruleset.id] = (ruleset.locales_dir, [ruleset.locales_dir.parent])
    return found


DOMAINS = domains()
EVERY = [(domain, lang) for domain in DOMAINS for lang in LANGUAGES]


def catalog(domain: str, lang: str):
    with (DOMAINS[domain][0] / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as fh:
        return read_po(fh, locale=lang)


def key(message) -> tuple[str | None, str]:
    """A message's identity in its catalog: its context and its (singular) msgid."""
    return message.context, message.id if isinstance(message.id, str) else message.id[0]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, set[tuple[str | None, str]]]:
    """The messages each domain's code holds now, extracted exactly as `make messages` does
    (with the sentences for exactly one that tools/one_texts.py adds, the role forms that
    tools/form_texts.py adds)."""
    babel = Path(sys.executable).parent / "pybabel"
    found = {}
    for domain, (_, sources) in DOMAINS.items():
        pot = tmp_path_factory.mktemp("pot") / f"{domain}.pot"
        subprocess.run([str(babel), "extract", "-F", "babel.cfg", *KEYWORDS, "--no-location",
                        "-o", str(pot), *map(str, sources)], cwd=ROOT, check=True,
                       capture_output=True)
        with pot.open("rb") as fh:
            template = read_po(fh)
        add_one_texts(template)
        add_form_texts(template)
        found[domain] = {key(m) for m in template if m.id}
    return found


@pytest.mark.parametrize(("domain", "lang"), EVERY)
def test_the_catalog_parses_and_compiles(domain, lang):
    buffer = io.BytesIO()
    write_mo(buffer, catalog(domain, lang))
    assert buffer.getvalue()


@pytest.mark.parametrize(("domain", "lang"), EVERY)
def test_nothing_is_untranslated_or_fuzzy(domain, lang):
    missing = []
    for message in catalog(domain, lang):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            missing.append(message.id)
    assert not missing


@pytest.mark.parametrize(("domain", "lang"), EVERY)
def test_the_catalog_matches_the_code(domain, lang, extracted):
    known = {key(m) for m in catalog(domain, lang) if m.id}
    wanted = extracted[domain]
    assert not wanted - known, f"missing from {domain}/{lang}: {sorted(wanted - known)[:5]}"
    assert not known - wanted, f"stale in {domain}/{lang}: {sorted(known - wanted)[:5]}"


@pytest.mark.parametrize(("domain", "lang"), EVERY)
def test_placeholders_and_plural_forms_agree(domain, lang):
    problems = []
    for message in catalog(domain, lang):
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
    for domain, lang in EVERY:
        for message in catalog(domain, lang):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            params = {name: "x" for name in PLACEHOLDER.findall(" ".join(ids))}
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in strings:
                text.format(**params)


@pytest.mark.parametrize(("domain", "lang"), EVERY)
def test_gnu_msgfmt_checks_the_catalog(domain, lang):
    """GNU gettext's own check (`msgfmt -c`: the header, the plural forms, every form's
    placeholders where that form serves more than one number), as any other gettext tool
    would read the catalog."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("GNU gettext's msgfmt is not installed")
    po = DOMAINS[domain][0] / lang / "LC_MESSAGES" / f"{domain}.po"
    run = subprocess.run([msgfmt, "-c", "-o", "/dev/null", str(po)], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr


def test_a_plural_message_says_exactly_one_in_its_own_sentence():
    """Russian's first plural form serves 1, 21, 31…: for exactly one the `ONE` entry speaks
    ("Найдено тело"), for 21 the plural form with its number; English keeps its singular."""
    singular = "Morning. Found dead: {names}."
    plural = "Morning. {count} found dead: {names}."
    assert any(key(m) == (ONE, singular) for m in catalog("alchemists", "ru"))

    def said(lang: str, count: int) -> str:
        renderer = Renderer(lang, {}, str, ruleset="alchemists")
        return renderer.render(Text(singular, {"count": count, "names": "Ann"}, plural, count))

    assert said("ru", 1) == "Утро. Найдено тело: Ann."
    assert said("ru", 21) == "Утро. Найдено 21 тело: Ann."
    assert said("ru", 3) == "Утро. Найдено 3 тела: Ann."
    assert said("en", 1) == singular.format(names="Ann")
    assert said("en", 2) == "Morning. 2 found dead: Ann."
