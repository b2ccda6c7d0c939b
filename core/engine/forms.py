"""The forms a role or a side takes in running text, each a text of its own that a translator
supplies: German needs "den Forscher" after a verb and "die Ponys" with its article, Russian
«на стороне города» as a predicate, and a loner is labelled a loner, not by his own name twice.

A template asks for a form by its placeholder (`{role_whom}`, `{side_with}`); the code fills
it with a `Ref` of that kind (`role_form`, `side_form`), and the renderer looks the form up in
the catalog under its gettext context (`CONTEXTS`). Each form is named by its use, not by a
grammatical case, so each language fills it with the case its grammar wants there:

- a role's forms are its running-text msgid (`role was`, declared with the role) under another
  context, made for every role by `tools/form_texts.py` (English says "the Researcher" in
  every position, so the forms need no English of their own);
- a side's forms differ in English too ("the ponies", "on the ponies' side", "a loner"), so a
  rule set declares them in its vocabulary under the form's kind, each marked `NC_` with the
  form's context; a side without an entry for `side_label` is labelled by its name.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache

from .messages import ROLE_WAS, Ref, RefKind


class RoleForm(StrEnum):
    """A role's form, by the kind of `Ref` that carries it (and the placeholder that asks)."""

    # its name, as a list or a label shows it: "Researcher", «Исследователь»
    NAME = RefKind.ROLE.value
    WAS = RefKind.ROLE_WAS.value  # running text, the subject's or after "was": "der Forscher"
    WHOM = "role_whom"  # running text, a verb's object: "jagt Bob, den Forscher, …"


class SideForm(StrEnum):
    """A side's form, by the kind of `Ref` that carries it (and the placeholder that asks)."""

    NAME = RefKind.SIDE.value  # its name, as a heading or a list shows it: "Ponys"
    THE = "side_the"  # running text, with its article: "die Ponys", «пони»
    WITH = "side_with"  # a predicate: "stood {side_with}": "auf der Seite der Homunculi", "allein"
    LABEL = "side_label"  # beside a role ("Gier (Einzelgänger)"): a loner is labelled a loner


# a form's gettext context; the names (`NAME`) have none
CONTEXTS: dict[str, str] = {
    RoleForm.WAS: ROLE_WAS, RoleForm.WHOM: "role whom",
    SideForm.THE: "side the", SideForm.WITH: "side with", SideForm.LABEL: "side label",
}
# the role forms made from the running-text form (`tools/form_texts.py`)
ROLE_FORMS_FROM_WAS = (RoleForm.WHOM,)
ROLE_FORMS = frozenset(RoleForm)  # the kinds of `Ref` that name a role


@cache
def role_form(role_id: str, form: RoleForm) -> Ref:
    return Ref(form.value, role_id)


@cache
def side_form(side_id: str, form: SideForm) -> Ref:
    return Ref(form.value, side_id)
