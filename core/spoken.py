"""Values that read differently in every language: a phase's name, a duration with its units,
a deadline as local date and clock time, an option's name and value, a language. The service
names them with `Ref`s of a `SpokenKind`, so they are put into words only at delivery, in the
reader's language, like every other word of a text.
A rule set's own stages and option values are named by its vocabulary (`stage`,
`option_value`); only the engine's and the service's own are named here."""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from datetime import datetime, timedelta
from enum import StrEnum
from typing import assert_never
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_time, format_timedelta
from babel.units import format_unit

from core.engine.messages import N_, NC_, Ref
from core.engine.phase import Phase, PhaseKind, Stage
from core.languages import choice_name, name_in


class SpokenKind(StrEnum):
    """The kinds of `Ref` this module puts into words. A `Ref`'s kind is stored with it (the
    outbox's rows, the buttons' labels), so each keeps its string; a `Ref` read back holds the
    plain string, which `spoken` finds its kind by."""

    PHASE = "phase"  # a phase ("day 2 vote")
    DURATION = "duration"  # what is left, in seconds ("": no deadline)
    SPAN = "span"  # a timer's length, in seconds
    UNTIL = "until"  # what is left and when: "seconds due_at zone"
    DUE = "due"  # when a window closes: "due_at zone"
    OPTION_NAME = "option_name"  # a setting's name (the service's own; a rule set's elsewhere)
    OPTION_VALUE = "option_value"  # a setting's value
    LANGUAGE = "language"  # a language, by its code
    LANGUAGE_CHOICE = "language_choice"  # a language as the choice of the language setting
    SKILL = "skill"  # a table's skill, as the balance advisor's presets name it


_KINDS: dict[str, SpokenKind] = {kind.value: kind for kind in SpokenKind}

# "Day 2 (vote)": the day or night's number, then the open window (none for a single stage);
# a rule set names its own windows in its vocabulary's `stage` ("vote": "Day {number} (vote)")
PHASE_NAMES: dict[tuple[PhaseKind, str], str] = {
    (PhaseKind.DAY, Stage.NONE): N_("Day {number}"),
    (PhaseKind.DAY, Stage.SETUP): N_("Day {number} (before the start)"),  # before the deal
    (PhaseKind.NIGHT, Stage.NONE): N_("Night {number}"),
}
ENDED = N_("the game is over")
UNTIL = N_("{duration}, until {date}, {time}")
# when a forum-pace window closes, after "until": "Tuesday, 7:30 PM", „Dienstag, 19:30 Uhr“,
# «вторника, 19:30» (a weekday as "until" wants it: Russian's «до» takes the genitive)
DUE = N_("{weekday}, {time}")
UNTIL_WEEKDAY = (NC_("until", "Monday"), NC_("until", "Tuesday"), NC_("until", "Wednesday"),
                 NC_("until", "Thursday"), NC_("until", "Friday"), NC_("until", "Saturday"),
                 NC_("until", "Sunday"))
NO_DEADLINE = N_("no time limit")

# An option's value as the group reads it (numbers and names stay as they are): a yes/no
# option's, the pace's and the role list's; a rule set names its options' own values in its
# vocabulary's `option_value`; a language is said by its name (`LANGUAGES`)
OPTION_VALUES = {
    "on": N_("on"), "off": N_("off"), "quick": N_("quick"), "forum": N_("forum"),
    "default": N_("the rules' deal"), "—": N_("none"),
}
# a table's skill as a host types it after /balance (the balance advisor's presets,
# core/balance/presets.py), said in the reader's words (its gettext context: `SKILL`)
SKILL = SpokenKind.SKILL.value
SKILL_WORDS = {"new": NC_("skill", "new"), "regular": NC_("skill", "regular"),
               "sharp": NC_("skill", "sharp")}
# the values of the language setting (the bot's languages), said by their names
LANGUAGES = ("en", "de", "ru")
# the service's own settings, beside each rule set's options (its vocabulary's `option_name`)
SETTING_NAMES = {"pace": N_("pace"), "roles": N_("roles"), "language": N_("language")}


def phase(value: Phase) -> Ref:
    return Ref(SpokenKind.PHASE, str(value))


def duration(seconds: float | None) -> Ref:
    """A span of time (None: no deadline at all)."""
    return Ref(SpokenKind.DURATION, "" if seconds is None else str(max(0, int(seconds))))


def span(seconds: float) -> Ref:
    """A timer's length as the host set it, said exactly ("2 minutes 30 seconds", "2 days")."""
    return Ref(SpokenKind.SPAN, str(max(0, int(seconds))))


def until(seconds: float, due_at: float, tz: str) -> Ref:
    """How long is left and when that is, for a deadline on the clock (the forum pace)."""
    return Ref(SpokenKind.UNTIL, f"{max(0, int(seconds))} {due_at} {tz}")


def due(due_at: float, tz: str) -> Ref:
    """When a window closes, as a clock in the game's time zone ("Tuesday, 7:30 PM")."""
    return Ref(SpokenKind.DUE, f"{due_at} {tz}")


def phase_name(t: gettext.NullTranslations, value: str,
               stages: Mapping[str, str] | None = None) -> str:
    """"Day 2 (vote)" from "day 2 vote", in the translations' language; `stages` are the
    rule set's names of its windows (a window it does not name: the day or night alone)."""
    shown = Phase.parse(value)
    if shown.kind == PhaseKind.ENDED:
        return t.gettext(ENDED)
    msgid = (PHASE_NAMES.get((shown.kind, shown.stage)) or (stages or {}).get(shown.stage)
             or PHASE_NAMES[(shown.kind, "")])
    return t.gettext(msgid).format(number=shown.number)


def duration_words(seconds: int, locale: str) -> str:
    """"4 minutes", "1 Stunde 30 Minuten", "50 секунд", "1 day 10 hours": whole units, never
    a rounded hour or day (Babel's `format_timedelta` alone says 30 hours as «1 день»); from
    a day on, days and the hours to the nearest."""
    def unit(amount: float) -> str:
        return format_timedelta(timedelta(seconds=amount), locale=locale, threshold=1)
    if seconds < 60:
        return unit(seconds)
    minutes = round(seconds / 60)
    if minutes < 60:
        return unit(minutes * 60)
    if minutes < 24 * 60:
        hours, minutes = divmod(minutes, 60)
        return unit(hours * 3600) + (" " + unit(minutes * 60) if minutes else "")
    return span_words(round(minutes / 60) * 3600, locale)


def span_words(seconds: int, locale: str) -> str:
    """"2 Minuten 30 Sekunden", "2 дня", "8 days": each unit whole, none rounded (Babel's
    `format_timedelta` would round 8 days to "1 week")."""
    parts = []
    for name, unit in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        amount, seconds = divmod(seconds, unit)
        if amount:
            parts.append(format_unit(amount, f"duration-{name}", length="long", locale=locale))
    return " ".join(parts) or format_unit(0, "duration-second", length="long", locale=locale)


def until_words(t: gettext.NullTranslations, value: str, locale: str) -> str:
    """"5 Stunden, bis Donnerstag, 3. Dezember, 20:00": what is left and the local clock."""
    seconds, due_at, tz = value.split(" ", 2)
    when = datetime.fromtimestamp(float(due_at), ZoneInfo(tz))
    return t.gettext(UNTIL).format(
        duration=duration_words(int(seconds), locale),
        date=format_date(when, "EEEE, d MMMM" if locale != "de" else "EEEE, d. MMMM",
                         locale=locale),
        time=format_time(when, "short", locale=locale))


def due_words(t: gettext.NullTranslations, value: str, locale: str) -> str:
    """"Dienstag, 19:30 Uhr": the weekday and the local clock time of a deadline (a forum
    deadline is at most a week away, so the weekday names it)."""
    due_at, tz = value.split(" ", 1)
    when = datetime.fromtimestamp(float(due_at), ZoneInfo(tz))
    return t.gettext(DUE).format(weekday=t.pgettext("until", UNTIL_WEEKDAY[when.weekday()]),
                                 time=format_time(when, "short", locale=locale))


def spoken(t: gettext.NullTranslations, ref: Ref, locale: str,
           vocabulary: Mapping[str, Mapping[str, str]]) -> str | None:
    """The words for a `Ref` of a `SpokenKind` (None for any other kind, and for the name of
    an option that is not the service's own), with the rule set's `vocabulary` for its own
    stages and option values."""
    kind = _KINDS.get(ref.kind)
    if kind is None:
        return None
    value = ref.value
    match kind:
        case SpokenKind.PHASE:
            return phase_name(t, value, vocabulary.get("stage"))
        case SpokenKind.DURATION:
            return duration_words(int(value), locale) if value else t.gettext(NO_DEADLINE)
        case SpokenKind.SPAN:
            return span_words(int(value), locale)
        case SpokenKind.UNTIL:
            return until_words(t, value, locale)
        case SpokenKind.DUE:
            return due_words(t, value, locale)
        case SpokenKind.OPTION_NAME:
            return t.gettext(SETTING_NAMES[value]) if value in SETTING_NAMES else None
        case SpokenKind.LANGUAGE:
            return name_in(value, locale)
        case SpokenKind.LANGUAGE_CHOICE:
            return choice_name(value, locale)
        case SpokenKind.SKILL:
            return t.pgettext(SKILL, SKILL_WORDS[value])
        case SpokenKind.OPTION_VALUE:
            if value in LANGUAGES:
                return name_in(value, locale)
            msgid = OPTION_VALUES.get(value) or vocabulary.get("option_value", {}).get(value)
            return t.gettext(msgid) if msgid else value
        case _:
            assert_never(kind)
