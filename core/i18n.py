"""Translation at the edge: gettext catalogs (Babel) and the rendering of engine messages.

Catalogs are read from the `.po` sources and compiled in memory, so a fresh clone needs no
compile step. English is the source language and needs no catalog. There is one domain per
rule set (its `locales_dir`, so a rule set in a package of its own brings its own texts), one
per role that a package of its own adds to a rule set (`Ruleset.role_catalogs`), and
the core's `nightfall` domain under `locales/` (the service's and the adapters' texts); a
game's texts are looked up in its rule set's catalog first, then in the core's.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Literal, assert_never

from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from core.engine.forms import CONTEXTS, ROLE_FORMS, RoleForm
from core.engine.messages import Either, Param, Ref, RefKind, Tally, Text, WithRole
from core.engine.registry import available, load_ruleset
from core.engine.ruleset import Catalog
from core.numbers import Number
from core.service import HowTo
from core.service.ports.howto import KIND as HOWTO_KIND
from core.spoken import spoken

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "nightfall"
SOURCE_LOCALE = "en"
# The gettext context of a plural message's sentence for exactly one ("Left the game: {names}."):
# gettext's first plural form also serves 21, 31… in Russian, so it cannot be that sentence
# (tools/one_texts.py adds these entries to the templates).
ONE = "one"
# A command in a text: a slash at the start or after a space or an opening quote or bracket,
# then a word (in any script) or a `{placeholder}`. URLs, "Europe/Berlin" and "1/2" are not.
COMMAND_SLASH = re.compile(r"(?<![^\s(\[«„“\"'])/(?=[^\W\d_]|\{)")


def _compiled(directory: Path, domain: str, locale: str) -> gettext.NullTranslations | None:
    """One domain's catalog for a locale, compiled from its `.po` file (None if it has none)."""
    po_path = directory / locale / "LC_MESSAGES" / f"{domain}.po"
    if not po_path.exists():
        return None
    with po_path.open("rb") as fh:
        catalog = read_po(fh, locale=locale)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def _ruleset_catalogs(ruleset_id: str, locale: str) -> list[gettext.NullTranslations | None]:
    """A rule set's own catalog, then those of the roles that packages of their own add."""
    ruleset = load_ruleset(ruleset_id)
    own = ([] if ruleset.locales_dir is None else
           [Catalog(ruleset.locales_dir, ruleset.domain or ruleset.id)])
    return [_compiled(c.directory, c.domain, locale) for c in (*own, *ruleset.role_catalogs)]


@cache
def translations(locale: str, ruleset: str | None = None) -> gettext.NullTranslations:
    """The texts for a locale: a game's (its rule set's catalog, then the core's), or with no
    rule set the core's, then every installed rule set's (texts shown outside a game, such as
    the roles of every game). English or an unknown locale: the source texts."""
    if locale == SOURCE_LOCALE:
        return gettext.NullTranslations()
    core = _compiled(LOCALES_DIR, DOMAIN, locale)
    if ruleset is not None:
        chain = [*_ruleset_catalogs(ruleset, locale), core]
    else:
        chain = [core, *(found for other in sorted(available())
                         for found in _ruleset_catalogs(other, locale))]
    found = [t for t in chain if t is not None]
    if not found:
        return gettext.NullTranslations()
    first = found[0]
    for fallback in found[1:]:
        first.add_fallback(fallback)
    return first


@cache
def own_catalog(catalog: Catalog, locale: str) -> gettext.NullTranslations:
    """The texts of an adapter's own domain (its how-to texts, see core/service/howto.py)
    for a locale; English or a locale it does not have: the source texts."""
    if locale == SOURCE_LOCALE:
        return gettext.NullTranslations()
    return _compiled(catalog.directory, catalog.domain, locale) or gettext.NullTranslations()


def available_locales() -> list[str]:
    found = [p.name for p in LOCALES_DIR.iterdir() if (p / "LC_MESSAGES").is_dir()]
    return sorted({SOURCE_LOCALE, *found})


def with_prefix(template: str, prefix: str) -> str:
    """A text's commands written with the platform's command prefix (`!vote` on Matrix,
    where clients take `/word` as their own command); only the template is changed, never
    what fills it (a name, a link)."""
    return template if prefix == "/" else COMMAND_SLASH.sub(prefix, template)


class Renderer:
    """Renders texts for one locale: a game's when `ruleset` names its rule set (whose catalog
    is asked first); `names` maps player ids to display names; commands are written with
    `command_prefix` (see `with_prefix`); a how-to reference is the platform's own text for
    its topic, from `howto` (see core/service/ports/howto.py), translated in `howto_catalog` if
    the platform brings its own."""

    def __init__(self, locale: str, vocabulary: Mapping[str, Mapping[str, str]],
                 names: Callable[[str], str], command_prefix: str = "/",
                 ruleset: str | None = None,
                 howto: Mapping[HowTo, str] | None = None,
                 howto_catalog: Catalog | None = None) -> None:
        self.locale = locale
        self.t = translations(locale, ruleset)
        self.vocabulary = vocabulary
        self.names = names
        self.command_prefix = command_prefix
        self.howto = howto or {}
        self.howto_catalog = howto_catalog

    def word(self, ref: Ref) -> str:
        if ref.kind == RefKind.PLAYER:
            return self.names(ref.value)
        if ref.kind == HOWTO_KIND:
            return self.how(HowTo(ref.value))
        if ref.kind == RefKind.RULESET:
            return translations(self.locale, ref.value).gettext(load_ruleset(ref.value).title)
        said = spoken(self.t, ref, self.locale, self.vocabulary)
        if said is not None:
            return said
        context = CONTEXTS.get(ref.kind)
        if context is not None:
            return self.form(ref, context)
        msgid = self.vocabulary.get(ref.kind, {}).get(ref.value)
        return self.t.gettext(msgid) if msgid else ref.value

    def form(self, ref: Ref, context: str) -> str:
        """A role's or a side's form in running text (core/engine/forms.py): a role's every
        form is its running-text msgid under the form's context, a side's its own msgid; a
        role or side without the form is said by its name."""
        is_role = ref.kind in ROLE_FORMS
        msgid = self.vocabulary.get(RoleForm.WAS if is_role else ref.kind, {}).get(ref.value)
        if msgid is None:
            return self.word(Ref(RefKind.ROLE if is_role else RefKind.SIDE, ref.value))
        return self.t.pgettext(context, msgid)

    def how(self, topic: HowTo) -> str:
        """The platform's sentences for a how-to topic; a platform without them cannot say
        the text (its row fails visibly rather than tell another platform's steps)."""
        msgid = self.howto.get(topic)
        if msgid is None:
            raise LookupError(f"the platform has no how-to text for {topic.value!r}")
        if self.howto_catalog is None:
            return self.text(msgid)
        said = own_catalog(self.howto_catalog, self.locale).gettext(msgid)
        return with_prefix(said, self.command_prefix)

    def value(self, value: Param) -> str | int:
        """A placeholder's filling in the reader's words, by its type (see `Param`)."""
        match value:
            case Ref():
                return self.word(value)
            case Text():  # a counted phrase inside the sentence
                return self.render(value)
            case Tally(who, votes):
                return f"{self.word(who)} ({votes})"
            case WithRole(who, role):
                return f"{self.word(who)} ({self.word(role)})"
            case Either(items):  # alternatives ("Abduct or Exchange"), before any tuple
                return self.listed([str(self.value(v)) for v in items], "or")
            case tuple() if value and all(isinstance(v, Tally) for v in value):
                return ", ".join(str(self.value(v)) for v in value)  # a count: a table row
            case tuple():
                return self.listed([str(self.value(v)) for v in value])
            case int():  # digits, or words where the template asks (see core/numbers.py)
                return Number(value, self.locale)
            case str():
                return value
            case _:
                assert_never(value)

    def listed(self, items: Sequence[str],
               style: Literal["standard", "or"] = "standard") -> str:
        """A list as the language joins it: "Ann, Bob, and Cid" (English's serial comma, as
        CLDR writes it: a role's name may itself hold an "and"), „Ann, Bob und Cid“,
        «Ann, Bob и Cid»; with `style` "or" alternatives („Entführen oder Austauschen“)."""
        return format_list(list(items), style, self.locale) if items else ""

    def text(self, key: str, params: Mapping[str, Param] | None = None) -> str:
        return self.render_parts(key, None, None, params or {})

    def render(self, text: Text) -> str:
        return self.render_parts(text.key, text.plural, text.count, text.params)

    def render_parts(self, key: str, plural: str | None, count: int | None,
                     params: Mapping[str, Param]) -> str:
        if plural is None:
            template = self.t.gettext(key)
        elif count == 1 and (one := self.t.pgettext(ONE, key)) != key:
            template = one  # its own sentence for exactly one (see `ONE`)
        else:  # English, a message without a text for one, or any other number
            template = self.t.ngettext(key, plural, count or 0)
        return with_prefix(template, self.command_prefix).format(
            **{k: self.value(v) for k, v in params.items()})
