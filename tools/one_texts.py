"""Give a gettext template the text for exactly one of each plural message that has one.

A plural message whose English singular does not say its number ("Left the game: {names}."
next to "{count} left the game: {names}.") is a sentence about exactly one. gettext's first
plural form cannot carry that sentence in every language: in Russian it also serves 21, 31,
101…, which need the number. So such a message gets a second entry, the same English under
the context `ONE` (see `core.i18n.Renderer.render_parts`): the sentence for exactly one, while
the plural entry's forms serve every other number (and must each say `{count}` where the
language's form serves more than one number; `msgfmt -c` checks it). `make messages` runs
this on every template it extracts, before merging it into the catalogs.

    .venv/bin/python tools/one_texts.py locales/nightfall.pot
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.i18n import ONE  # noqa: E402
from tools.templates import edit_templates  # noqa: E402

# a singular that says its number: "{count}", or with a number's spec ("{count:w}", see
# core/numbers.py)
SAYS_COUNT = re.compile(r"\{count(?::\w*)?\}")
COMMENT = ("The sentence for exactly one (no number needed); the plural message with this "
           "singular serves every other number.")


def one_texts(catalog: Catalog) -> list[str]:
    """The singulars of `catalog`'s plural messages that are sentences about exactly one."""
    return sorted({m.id[0] for m in catalog
                   if m.id and isinstance(m.id, tuple) and not SAYS_COUNT.search(m.id[0])})


def add_one_texts(catalog: Catalog) -> None:
    """Add the `ONE` entry of each plural message that needs one (see the module's text)."""
    for singular in one_texts(catalog):
        catalog.add(singular, context=ONE, auto_comments=[COMMENT])


if __name__ == "__main__":
    edit_templates(sys.argv[1:], add_one_texts)
