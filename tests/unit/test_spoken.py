"""Phases, durations and deadlines in the reader's words (rendered at delivery)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from core.engine.messages import Ref
from core.engine.phase import Phase
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.spoken import duration, phase, until


def said(locale: str, ref: Ref, ruleset: str | None = None) -> str:
    vocabulary = load_ruleset(ruleset).vocabulary if ruleset else {}
    return str(Renderer(locale, vocabulary, str, ruleset=ruleset).value(ref))


def test_phases_are_named_in_the_readers_language_with_the_rule_sets_windows():
    assert said("en", phase(Phase("night", 1, "dusk")), "changelings") == "Night 1 (dusk)"
    assert said("de", phase(Phase("day", 2, "vote")), "changelings") == "Tag 2, Abstimmung"
    assert said("ru", phase(Phase("day", 2, "vote")), "alchemists") == "День 2, голосование"
    assert said("ru", phase(Phase("night", 3)), "alchemists") == "Ночь 3"
    assert said("de", phase(Phase("day", 1, "setup"))) == "Tag 1, vor dem Start"


def test_a_window_the_rule_set_does_not_name_is_its_day_or_night_alone():
    assert said("en", phase(Phase("night", 2, "dusk"))) == "Night 2"
    assert said("en", phase(Phase("night", 2, "dusk")), "alchemists") == "Night 2"


def test_a_rule_sets_option_values_are_its_own_words():
    assert said("de", Ref("option_value", "off")) == said("de", Ref("option_value", "off"),
                                                           "alchemists")
    assert said("en", Ref("option_value", "night"), "changelings") == "once a night"
    assert said("en", Ref("option_value", "majority"), "alchemists") == "majority"
    assert said("en", Ref("option_value", "night"), "alchemists") == "night"  # not its value


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
    assert said("en", until(3600, due, "Asia/Tokyo")) == \
        "1 hour, until Friday, 4 December, 4:00\u202fAM"
