"""The bot's languages by name, never by code: "Deutsch", „Englisch“, «русский», from
Babel's locale data (CLDR), so a new catalog brings its names along without a translation."""

from __future__ import annotations

from functools import cache

from babel import Locale


@cache
def name_in(code: str, reader: str) -> str:
    """The language `code` as a reader of `reader` calls it: „Englisch“ for a German reader,
    «английский» for a Russian one (lower case, as Russian writes it in running text); its
    own name, capitalized, when the reader reads that language ("English", "Deutsch")."""
    said = Locale.parse(code).get_display_name(reader) or code
    return said[:1].upper() + said[1:] if code == reader else said


def own_name(code: str) -> str:
    """The language as its own speakers call it: "English", "Deutsch", "Русский"."""
    return name_in(code, code)


def choice_name(code: str, reader: str) -> str:
    """A language in a list to choose from: the reader's name for it and, where that differs,
    its own ("Russisch (Русский)"), so a reader of neither finds his own language."""
    said, own = name_in(code, reader), own_name(code)
    return said if said.casefold() == own.casefold() else f"{said} ({own})"
