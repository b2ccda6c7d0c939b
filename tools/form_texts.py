"""Give a gettext template a role's forms in running text (core/engine/forms.py).

A role names its running-text form once, where it is declared (`NC_("role was", "the
Researcher")`). English says it the same way as a verb's object, so the other forms have no
English of their own to mark; German ("den Forscher") and Russian need them as texts of their
own. This adds, for every entry in the `role was` context, the same English under each other
form's context (`ROLE_FORMS_FROM_WAS`), for the translator to fill. `make messages` runs this on
every template it extracts, before merging it into the catalogs.

    .venv/bin/python tools/form_texts.py rulesets/changelings/locales/changelings.pot
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.engine.forms import CONTEXTS, ROLE_FORMS_FROM_WAS, RoleForm  # noqa: E402
from tools.templates import edit_templates  # noqa: E402

COMMENTS = {RoleForm.WHOM: "The role as a verb's object, as in \"chases Bob, the Researcher, "
                           "out of town\" (German: accusative, with its article)."}


def add_form_texts(catalog: Catalog) -> None:
    """Add each role's forms next to its running-text form (see the module's text)."""
    roles = sorted({m.id for m in catalog
                    if m.context == CONTEXTS[RoleForm.WAS] and isinstance(m.id, str)})
    for form in ROLE_FORMS_FROM_WAS:
        for msgid in roles:
            catalog.add(msgid, context=CONTEXTS[form], auto_comments=[COMMENTS[form]])


if __name__ == "__main__":
    edit_templates(sys.argv[1:], add_form_texts)
