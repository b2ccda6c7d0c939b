"""What a host types for a timer, in English, German and Russian."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.spans import Clock, read_span
from core.spoken import span_words


@pytest.mark.parametrize(("typed", "seconds"), [
    ("10m", 600), ("2m30s", 150), ("2m 30s", 150), ("1h 30m", 5400), ("48h", 172800),
    ("2 days", 172800), ("1 minute", 60), ("90 sec", 90), ("1.5h", 5400), ("5", 300),
    ("10 Minuten", 600), ("1 Std. 30 Min.", 5400), ("90 Sek.", 90), ("2 Tage", 172800),
    ("1 Stunde", 3600), ("10 минут", 600), ("1 минуту", 60), ("3 мин", 180), ("1ч 30мин", 5400),
    ("2 дня", 172800), ("45 сек", 45), ("сутки", None), ("1 сутки", 86400)])
def test_durations_in_three_languages(typed, seconds):
    assert read_span(typed) == seconds


@pytest.mark.parametrize(("typed", "clock"), [("21:00", Clock(21, 0)), ("9.30", Clock(9, 30)),
                                               ("00:05", Clock(0, 5))])
def test_clock_times(typed, clock):
    assert read_span(typed) == clock
    assert str(clock) == typed.replace(".", ":").zfill(5)


@pytest.mark.parametrize("typed", ["", "soon", "10 lightyears", "25:00", "12:60", "10m x",
                                   "m10", "5 5"])
def test_anything_else_is_no_time(typed):
    assert read_span(typed) is None


def test_a_span_is_said_exactly_in_each_language():
    assert span_words(150, "en") == "2 minutes 30 seconds"
    assert span_words(150, "de") == "2 Minuten 30 Sekunden"
    assert span_words(172800, "ru") == "2 дня"


UNITS = {"en": ("d", "h", "min", "s"), "de": ("Tage", "Std.", "Min.", "Sek."),
         "ru": ("дн.", "ч", "мин", "сек")}


@given(st.lists(st.integers(min_value=0, max_value=99), min_size=4, max_size=4),
       st.sampled_from(sorted(UNITS)), st.booleans())
def test_what_is_said_or_typed_reads_back_as_the_same_seconds(amounts, language, spaced):
    """Any mix of days, hours, minutes and seconds, typed in one language's short units, or
    said back in words by `span_words`, reads as the same number of seconds."""
    seconds = sum(a * u for a, u in zip(amounts, (86400, 3600, 60, 1), strict=True))
    if seconds == 0:
        return
    typed = " ".join(f"{a}{' ' if spaced else ''}{unit}"
                     for a, unit in zip(amounts, UNITS[language], strict=True) if a)
    assert read_span(typed) == seconds
    assert read_span(span_words(seconds, language)) == seconds
