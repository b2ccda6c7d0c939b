"""Numbers as a text wants them: words for the small counts of flowing prose ("Two chalk
outlines on the pavement"), digits everywhere else (tallies, status lines, minutes).

The rule is the template's, so each language decides for itself: a placeholder written
`{count:w}` says its number in words from one to twelve (digits above), `{count:W}` the same
with a capital (a sentence's first word); a German or Russian template adds the noun's gender,
`{count:wf}` („eine“, «две») or `{count:wn}` („ein“, «одно»); masculine is the default. A plain
`{count}` stays digits; `{count:n}` groups a large number's digits as the language does
("10,080", „10.080“, «10 080»). Babel has no spelled-out numbers, so the twelve words of
each language are here (CLDR's "spellout" rules, cut to the nominative prose counts use).
"""

from __future__ import annotations

from babel.numbers import format_decimal

WORDS_UP_TO = 12
# one to twelve, masculine; the feminine and neuter forms that differ are in `GENDERED`
WORDS: dict[str, tuple[str, ...]] = {
    "en": ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve"),
    "de": ("ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn",
           "elf", "zwölf"),
    "ru": ("один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять",
           "десять", "одиннадцать", "двенадцать"),
}
GENDERED: dict[tuple[str, str, int], str] = {
    ("de", "f", 1): "eine",
    ("ru", "f", 1): "одна", ("ru", "f", 2): "две", ("ru", "n", 1): "одно",
}


def number_words(number: int, locale: str, spec: str) -> str | None:
    """`number` in words for a `w`/`W` spec (see the module), None for any other spec or a
    number prose writes in digits (zero, above twelve, a language without its words)."""
    if not spec or spec[0] not in "wW" or len(spec) > 2:
        return None
    gender = spec[1:] or "m"
    words = WORDS.get(locale.split("_")[0]) if gender in "mfn" else None
    if words is None or not 1 <= number <= WORDS_UP_TO:
        return None
    said = GENDERED.get((locale.split("_")[0], gender, number), words[number - 1])
    return said[0].upper() + said[1:] if spec[0] == "W" else said


class Number(int):
    """A count inside a text: formats as digits, or as words for a `w` spec (see the module).
    It stays an `int`, so the plural rules and every other format spec still see a number."""

    locale: str

    def __new__(cls, value: int, locale: str) -> Number:
        made = super().__new__(cls, value)
        made.locale = locale
        return made

    def __format__(self, spec: str) -> str:
        said = number_words(int(self), self.locale, spec)
        if said is not None:
            return said
        if spec and spec[0] in "wW":  # a word spec for a number prose writes in digits
            return str(int(self))
        if spec == "n":
            return format_decimal(int(self), locale=self.locale)
        return int.__format__(int(self), spec)
