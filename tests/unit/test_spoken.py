"""Phases, durations and deadlines in the reader's words (rendered at delivery)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from core.engine.messages import Ref
from core.engine.phase import Phase
from core.i18n import Renderer
from core.spoken import duration, phase, until


def said(locale: str, ref: Ref) -> str:
    return str(Renderer(locale, {}, str).value(ref))


def test_phases_are_named_in_the_readers_language():
    assert said("en", phase(Phase("night", 1, "dusk"))) == "Night 1 (dusk)"
    assert said("de", phase(Phase("day", 2, "vote"))) == "Tag 2, Abstimmung"
    assert said("ru", phase(Phase("day", 2, "vote"))) == "День 2, голосование"
    assert said("ru", phase(Phase("night", 3))) == "Ночь 3"


def test_durations_have_units_and_plural_forms():
    assert said("en", duration(245)) == "4 minutes"
    assert said("de", duration(245)) == "4 Minuten"
    assert said("ru", duration(245)) == "4 минуты"
    assert said("ru", duration(300)) == "5 минут"
    assert said("de", duration(5400)) == "1 Stunde 30 Minuten"
    assert said("ru", duration(40)) == "40 секунд"
    assert said("de", duration(None)) == "ohne Zeitlimit"


def test_a_forum_deadline_shows_the_local_date_and_clock_time():
    due = datetime(2026, 12, 3, 20, 0, tzinfo=ZoneInfo("Europe/Berlin")).timestamp()
    assert said("de", until(5 * 3600, due, "Europe/Berlin")) == \
        "5 Stunden, bis Donnerstag, 3. Dezember, 20:00 Uhr"
    assert said("ru", until(5 * 3600, due, "Europe/Berlin")) == \
        "5 часов, до 20:00, четверг, 3 декабря"
    assert said("en", until(3600, due, "Asia/Tokyo")) == "1 hour, until Friday, 4 December, 04:00"
