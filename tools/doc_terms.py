"""The bot's words in the docs, generated from the catalogs (issue 33: docs and bot agree).

A page marks a generated block with `<!-- terms:KIND -->` and `<!-- /terms -->`; this tool
fills each block with the words the bot says, rendered by the catalogs in the page's language,
so a renamed role or cause in a catalog cannot leave the docs behind. The kinds:

- `causes`: the rule set's ways out of the game, as the bot names them;
- `glossary`: the game's title, its sides, roles, windows, checks, options and, where the
  rule set has early votes, the ballot's button.

`python tools/doc_terms.py` rewrites the pages; `tests/unit/test_doc_terms.py` fails while a
page is out of date.
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.engine.registry import available, load_ruleset  # noqa: E402
from core.engine.ruleset import Ruleset  # noqa: E402
from core.i18n import translations  # noqa: E402
from core.service.messages.texts import EARLY_BUTTON  # noqa: E402

WIDTH = 100
BLOCK = re.compile(r"(<!-- terms:(\w+) -->\n)(.*?)(<!-- /terms -->)", re.S)
RULES_PAGE = re.compile(r"(\w+)\.(en|de|ru)\.md")
# the glossary's line labels: the docs' own words, not the bot's (never sent to a player)
LABELS = {
    "en": {"game": "Game", "sides": "Sides", "roles": "Roles", "causes": "Ways out",
           "windows": "Windows", "checks": "Check results", "options": "Options",
           "early": "Early-vote button"},
    "de": {"game": "Spiel", "sides": "Seiten", "roles": "Rollen", "causes": "Ausscheiden",
           "windows": "Abschnitte", "checks": "Prüfergebnisse", "options": "Einstellungen",
           "early": "Knopf zum Festlegen der Stimme"},
    "ru": {"game": "Игра", "sides": "Стороны", "roles": "Роли", "causes": "Выбывание",
           "windows": "Окна", "checks": "Результаты проверки", "options": "Настройки",
           "early": "Кнопка досрочного голоса"},
}
QUOTES = {"en": ('"', '"'), "de": ("„", "“"), "ru": ("«", "»")}


def words(ruleset_id: str, lang: str, kind: str) -> list[str]:
    """A vocabulary kind's words ("role", "side", "cause", …) as the bot says them in `lang`,
    in the rule set's order (empty if the rule set has no such kind)."""
    ruleset = load_ruleset(ruleset_id)
    said = translations(lang, ruleset_id)
    return [said.gettext(msgid) for msgid in ruleset.vocabulary.get(kind, {}).values()]


def title(ruleset_id: str, lang: str) -> str:
    return translations(lang, ruleset_id).gettext(load_ruleset(ruleset_id).title)


def has_early_votes(ruleset_id: str) -> bool:
    """Whether the ballot may offer the early-vote button (the rule set opens early votes)."""
    return type(load_ruleset(ruleset_id)).early_votes_open is not Ruleset.early_votes_open


def early_button(lang: str) -> str:
    return translations(lang).gettext(EARLY_BUTTON)


def wrapped(text: str, indent: str = "") -> str:
    return textwrap.fill(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=False) + "\n"


def causes_block(ruleset_id: str, lang: str) -> str:
    return wrapped(" · ".join(words(ruleset_id, lang, "cause")) + ".")


def glossary_block(ruleset_id: str, lang: str) -> str:
    label = LABELS[lang]
    lines = [(label["game"], [title(ruleset_id, lang)])]
    for key, kind in (("sides", "side"), ("roles", "role"), ("windows", "window"),
                      ("checks", "check"), ("causes", "cause"), ("options", "option_name")):
        found = words(ruleset_id, lang, kind)
        if found:
            lines.append((label[key], sorted(set(found), key=found.index)))
    if has_early_votes(ruleset_id):
        opening, closing = QUOTES[lang]
        lines.append((label["early"], [f"{opening}{early_button(lang)}{closing}"]))
    return "".join(wrapped(f"- **{name}:** " + " · ".join(found), "  ")
                   for name, found in lines)


BLOCKS = {"causes": causes_block, "glossary": glossary_block}


def rules_pages() -> Iterator[tuple[Path, str, str]]:
    """Every player rules page with its rule set and language."""
    for page in sorted((ROOT / "docs" / "rules").glob("*.md")):
        match = RULES_PAGE.fullmatch(page.name)
        if match and match.group(1) in available():
            yield page, match.group(1), match.group(2)


def generated(text: str, ruleset_id: str, lang: str) -> str:
    """The page's text with every block filled anew."""
    def fill(block: re.Match[str]) -> str:
        return block.group(1) + BLOCKS[block.group(2)](ruleset_id, lang) + block.group(4)
    return BLOCK.sub(fill, text)


def stale_pages() -> list[Path]:
    """The rules pages whose generated blocks differ from what the catalogs say now."""
    return [page for page, ruleset_id, lang in rules_pages()
            if generated(page.read_text(encoding="utf-8"), ruleset_id, lang)
            != page.read_text(encoding="utf-8")]


def main() -> None:
    for page, ruleset_id, lang in rules_pages():
        old = page.read_text(encoding="utf-8")
        new = generated(old, ruleset_id, lang)
        if new != old:
            page.write_text(new, encoding="utf-8")
            print(f"updated {page.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
