"""Move each rule set's translations out of locales/*/LC_MESSAGES/nightfall.po into the rule
set's own catalog (rulesets/<id>/locales/<lang>/LC_MESSAGES/<id>.po), by msgid.

Run it on a nightfall.po that still holds every message (a translator's copy from before the
split): each entry goes, unchanged, to every domain whose code uses its msgid; nightfall.po
keeps the messages of core/ and adapters/. Entries already in a rule set's catalog that the
given nightfall.po does not hold stay as they are. Then `make messages` tidies the files.

    .venv/bin/python tools/split_catalogs.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = ["-k", "N_", "-k", "tell_n:2,3", "-k", "refused_n:1,2", "-k", "SetupError",
            "-k", "n_:1,2"]
# domain -> (the directories its messages come from, where its catalogs live)
DOMAINS = {
    "nightfall": (["core", "adapters"], ROOT / "locales"),
    "changelings": (["rulesets/changelings"], ROOT / "rulesets/changelings/locales"),
    "alchemists": (["rulesets/alchemists"], ROOT / "rulesets/alchemists/locales"),
}
LANGUAGES = ("de", "ru")


def extracted(sources: list[str]) -> set[str]:
    """The msgids the code in `sources` holds, extracted as `make messages` does."""
    babel = Path(sys.executable).parent / "pybabel"
    with tempfile.TemporaryDirectory() as tmp:
        pot = Path(tmp) / "messages.pot"
        subprocess.run([str(babel), "extract", "-F", "babel.cfg", *KEYWORDS, "--no-location",
                        "-o", str(pot), *sources], cwd=ROOT, check=True, capture_output=True)
        with pot.open("rb") as fh:
            return {_id(m) for m in read_po(fh) if m.id}


def _id(message: object) -> str:
    msgid = message.id  # type: ignore[attr-defined]
    return msgid if isinstance(msgid, str) else msgid[0]


def _read(path: Path, lang: str) -> Catalog | None:
    if not path.exists():
        return None
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


def split(lang: str, wanted: dict[str, set[str]]) -> None:
    source_path = DOMAINS["nightfall"][1] / lang / "LC_MESSAGES" / "nightfall.po"
    source = _read(source_path, lang)
    assert source is not None, source_path
    for domain, (_, directory) in DOMAINS.items():
        path = directory / lang / "LC_MESSAGES" / f"{domain}.po"
        old = _read(path, lang) if domain != "nightfall" else None
        catalog = Catalog(locale=lang, domain=domain, project="nightfall",
                          language_team=source.language_team,
                          last_translator=source.last_translator)
        catalog.revision_date = source.revision_date
        catalog.fuzzy = False
        for message in source:
            if message.id and _id(message) in wanted[domain]:
                catalog[message.id] = message
        for message in old or ():
            if message.id and _id(message) in wanted[domain] and message.id not in catalog:
                catalog[message.id] = message
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:
            write_po(fh, catalog, sort_output=True, ignore_obsolete=True)


def main() -> None:
    wanted = {domain: extracted(sources) for domain, (sources, _) in DOMAINS.items()}
    for lang in LANGUAGES:
        split(lang, wanted)


if __name__ == "__main__":
    main()
