"""The bot's languages by name, never by code: "Deutsch", „Englisch“, «русский», from
Babel's locale data (CLDR), so a new catalog brings its names along without a translation."""

from __future__ import annotations

from functools import cache

from babel import Locale


@cache
def name_in(code: str, reader: str) -> str:
    """The language `code` as a reader of `reader` calls it in running text: „Englisch“ for a
    German reader, «английский» (lower case, as Russian writes it) for a Russian one."""
    return Locale.parse(code).get_display_name(reader) or code


def own_name(code: str) -> str:
    """The language as its own speakers call it, on a button or a heading: "English",
    "Deutsch", "Русский"."""
    said = name_in(code, code)
    return said[:1].upper() + said[1:]


def choice_name(code: str, reader: str) -> str:
    """A language in a list to choose from: the reader's name for it and, where that differs,
    its own ("Russisch (Русский)"), so a reader of neither finds his own language."""
    said, own = name_in(code, reader), own_name(code)
    return said if said.casefold() == own.casefold() else f"{said} ({own})"
