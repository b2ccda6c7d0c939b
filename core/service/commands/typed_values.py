"""What a host types for a setting's value, read in any of the bot's languages: an option's
on/off (`an`, `aus`, `ja`, `да`, `выкл`), a choice ("zufällig", "никогда"), the pace
("schnell", "быстрый"), a rule set's name ("Alchemisten", "алхимики"), a language ("Deutsch"),
an option's name ("Anzahl der Changelinge", "wechselbälger", "отдача"), a table's skill for
the balance advisor ("scharfsinnig", "новички").

The words come from the catalogs, per value, so they follow the translations: a value's id,
the word the bot shows for it in each language, and — for the few values a host types most —
a `typed` message whose translation lists further words, comma-separated ("an, ja, ein").
A value is read by its letters and digits alone, in any case ("Einmal pro Nacht")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from core.engine.messages import NC_, Ref
from core.engine.registry import available, load_ruleset
from core.i18n import available_locales, translations
from core.languages import name_in
from core.spoken import OPTION_VALUES, SKILL, SKILL_WORDS, SpokenKind

TYPED = "typed"  # the gettext context of the words a host may type for a value
#: further words per value, each message's translation a comma-separated list
TYPED_WORDS: Mapping[str, str] = {
    "on": NC_("typed", "on, yes, true"),
    "off": NC_("typed", "off, no, false"),
    "quick": NC_("typed", "quick, fast"),
    "forum": NC_("typed", "forum, slow"),
}
ON_OFF = ("on", "off")
#: further words for a table's skill (`/balance 12 sharp`), as `TYPED_WORDS`
SKILL_TYPED: Mapping[str, str] = {
    "new": NC_("typed", "new, beginners, novices, new table"),
    "regular": NC_("typed", "regular, normal, practised, regular table"),
    "sharp": NC_("typed", "sharp, experienced, experts, sharp table"),
}


def folded(text: str) -> str:
    """A word as it is compared: its letters and digits, case folded ("Ein mal" = "einmal")."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


@cache
def value_words(ruleset_id: str | None, values: tuple[str, ...]) -> Mapping[str, str]:
    """Every word, folded, that means one of `values` in some language -> the value; a rule
    set's (or, None, the service's own) words for them."""
    shown = load_ruleset(ruleset_id).vocabulary.get("option_value", {}) if ruleset_id else {}
    words: dict[str, str] = {folded(value): value for value in values}
    for locale in available_locales():
        t = translations(locale, ruleset_id)
        for value in values:
            msgid = OPTION_VALUES.get(value) or shown.get(value)
            if msgid:
                words.setdefault(folded(t.gettext(msgid)), value)
            typed = TYPED_WORDS.get(value)
            if typed:
                for word in t.pgettext(TYPED, typed).split(","):
                    words.setdefault(folded(word), value)
    words.pop("", None)
    return words


def read_value(typed: str, values: Iterable[str], ruleset_id: str | None = None) -> str | None:
    """The value among `values` the host means, or None."""
    return value_words(ruleset_id, tuple(values)).get(folded(typed))


@cache
def _skill_words() -> Mapping[str, str]:
    """Every word, folded, that names a table's skill in some language -> the skill: its
    id, the word the bot shows for it, and the further words its `typed` message lists."""
    words: dict[str, str] = {folded(value): value for value in SKILL_WORDS}
    for locale in available_locales():
        t = translations(locale)
        for value, msgid in SKILL_WORDS.items():
            words.setdefault(folded(t.pgettext(SKILL, msgid)), value)
            for word in t.pgettext(TYPED, SKILL_TYPED[value]).split(","):
                words.setdefault(folded(word), value)
    words.pop("", None)
    return words


def read_skill(typed: str) -> str | None:
    """The skill a host names after /balance, in any language ("scharfsinnig", "новички",
    "neue Runde"), or None."""
    return _skill_words().get(folded(typed))


def skill_choices() -> tuple[Ref, ...]:
    """The skills to choose from, each said in the reader's words."""
    return tuple(Ref(SpokenKind.SKILL, value) for value in SKILL_WORDS)


@cache
def option_words(ruleset_id: str) -> Mapping[str, str]:
    """Every name, folded, that means one of the rule set's options in some language -> the
    option: its id, its name as the bot shows it, the further words the rule set lets a
    host type for it."""
    ruleset = load_ruleset(ruleset_id)
    shown = ruleset.vocabulary.get("option_name", {})
    words: dict[str, str] = {folded(name): name for name in ruleset.default_options}
    for locale in available_locales():
        t = translations(locale, ruleset_id)
        for name in ruleset.default_options:
            if name in shown:
                words.setdefault(folded(t.gettext(shown[name])), name)
            if name in ruleset.option_words:
                for word in t.pgettext(TYPED, ruleset.option_words[name]).split(","):
                    words.setdefault(folded(word), name)
    words.pop("", None)
    return words


def read_option_name(ruleset_id: str, typed: str) -> tuple[str, str] | None:
    """The option a host names at the start of `typed` — by the longest run of words that
    names one ("Anzahl der Changelinge 3") — and the rest (the value), or None."""
    words = typed.split()
    known = option_words(ruleset_id)
    for count in range(len(words), 0, -1):
        name = known.get(folded(" ".join(words[:count])))
        if name is not None:
            return name, " ".join(words[count:])
    return None


@cache
def _ruleset_words(ruleset_ids: tuple[str, ...]) -> Mapping[str, str]:
    """Every rule set's id, its aliases and its title in each language, folded -> the rule
    set's id."""
    words: dict[str, str] = {}
    for ruleset_id in ruleset_ids:
        words[folded(ruleset_id)] = ruleset_id
        ruleset = load_ruleset(ruleset_id)
        words.update(dict.fromkeys(map(folded, ruleset.aliases), ruleset_id))
        title = ruleset.title
        for locale in available_locales():
            words.setdefault(folded(translations(locale, ruleset_id).gettext(title)),
                             ruleset_id)
    return words


def read_ruleset(typed: str) -> str | None:
    """The rule set a host names: its id or its title in any language ("Alchemisten")."""
    return _ruleset_words(tuple(sorted(available()))).get(folded(typed))


@cache
def _language_words(codes: tuple[str, ...]) -> Mapping[str, str]:
    """Every language's code and its name in each of the bot's languages, folded -> code."""
    words = {folded(code): code for code in codes}
    for code in codes:
        for reader in codes:
            words.setdefault(folded(name_in(code, reader)), code)
    return words


def read_language(typed: str) -> str | None:
    """The language a person names: its code ("de") or its name in any of the bot's
    languages ("Deutsch", "German", "немецкий")."""
    return _language_words(tuple(available_locales())).get(folded(typed))


def language_choices() -> tuple[Ref, ...]:
    """The bot's languages as a list to choose from (see `core.languages.choice_name`)."""
    return tuple(Ref(SpokenKind.LANGUAGE_CHOICE, code) for code in available_locales())
