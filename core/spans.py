"""What a host types for a timer, read in any of the bot's languages: a duration ("10m",
"2m30s", "1 Std. 30 Min.", "10 минут", "2 days") or a clock time ("21:00", "9.30").

The unit words come from the CLDR data Babel ships (every plural form of the long, short and
narrow names of seconds, minutes, hours and days in each language the bot speaks), so "Sek.",
"Stunden", "ч" and "дней" are known without a list of our own; `EXTRA_UNITS` adds what people
type that CLDR does not spell (the Russian accusative "минуту", "сутки", "hrs", "Std").
No library parses durations in German and Russian (pytimeparse2 reads English only), hence
this small reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from babel import Locale

from core.i18n import available_locales

UNIT_SECONDS = {"duration-second": 1, "duration-minute": 60, "duration-hour": 3600,
                "duration-day": 86400, "duration-week": 7 * 86400}
EXTRA_UNITS = {
    "s": 1, "sec": 1, "secs": 1, "sek": 1, "сек": 1, "секунду": 1,
    "m": 60, "min": 60, "mins": 60, "minuten": 60, "мин": 60, "минуту": 60, "м": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "std": 3600, "stunden": 3600, "час": 3600, "ч": 3600,
    "d": 86400, "tag": 86400, "tage": 86400, "tagen": 86400, "д": 86400, "сутки": 86400,
    "суток": 86400, "день": 86400,
}
_PAIR = re.compile(r"(\d+(?:[.,]\d+)?)\s*([^\d\s.,]+\.?)?")
_CLOCK = re.compile(r"(\d{1,2})[:.](\d{2})")


@dataclass(frozen=True)
class Clock:
    """A local clock time at the forum pace ("21:00"): the window closes at its next
    occurrence in the game's time zone."""

    hour: int
    minute: int

    def __str__(self) -> str:
        return f"{self.hour:02d}:{self.minute:02d}"


def _word(text: str) -> str:
    return text.casefold().rstrip(".")


@cache
def unit_words() -> dict[str, int]:
    """Every unit word of every language the bot speaks -> its seconds."""
    words = {_word(k): v for k, v in EXTRA_UNITS.items()}
    for code in available_locales():
        patterns = Locale.parse(code)._data["unit_patterns"]
        for unit, seconds in UNIT_SECONDS.items():
            for length in ("long", "short", "narrow"):
                for form, pattern in patterns[unit][length].items():
                    if form != "per":
                        words.setdefault(_word(pattern.replace("{0}", "").strip()), seconds)
    return words


def read_span(text: str) -> float | Clock | None:
    """A duration in seconds or a clock time, or None for anything else. A bare number is
    minutes (as /extend takes them)."""
    text = text.strip()
    clock = _CLOCK.fullmatch(text)
    if clock:
        hour, minute = int(clock[1]), int(clock[2])
        return Clock(hour, minute) if hour < 24 and minute < 60 else None
    squeezed = re.sub(r"\s+", " ", text)
    pairs = list(_PAIR.finditer(squeezed))
    if not pairs or "".join(m[0] for m in pairs).replace(" ", "") != squeezed.replace(" ", ""):
        return None  # something that is neither a number nor a unit
    total = 0.0
    for match in pairs:
        amount = float(match[1].replace(",", "."))
        if match[2] is None:
            if len(pairs) > 1:
                return None
            return amount * 60
        seconds = unit_words().get(_word(match[2]))
        if seconds is None:
            return None
        total += amount * seconds
    return total
