"""Numbers, times, lists and names as a native writes them (issue 33), in each language:
lists joined with the language's "and", a deadline extended or shortened in words of its own,
a day and some hours said exactly, languages by their names, small counts of prose in words,
and a forum deadline by its weekday and clock time."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from core.engine import Extend
from core.engine.log_codec import decode, encode
from core.engine.messages import Either, Ref, Tally, Text, ToHost, player
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.languages import choice_name, name_in, own_name
from core.numbers import number_words
from core.service.commands.typed_values import read_language
from core.service.messages import texts
from core.service.telling.settings_view import setting
from core.simulate import new_game
from core.spoken import due, duration, span

LANGS = ("en", "de", "ru")
NAMES = {"p1": "Ann", "p2": "Bob", "p3": "Cid"}


def renderer(lang: str, ruleset: str | None = None) -> Renderer:
    vocabulary = load_ruleset(ruleset).vocabulary if ruleset else {}
    return Renderer(lang, vocabulary, NAMES.__getitem__, ruleset=ruleset)


# 1. lists ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "three", "two"), [
    # English: CLDR's serial comma, chosen on purpose (a role's name may hold an "and")
    ("en", "Ann, Bob, and Cid", "Ann and Bob"),
    ("de", "Ann, Bob und Cid", "Ann und Bob"),
    ("ru", "Ann, Bob и Cid", "Ann и Bob"),
])
def test_a_list_is_joined_with_the_languages_and(lang, three, two):
    said = renderer(lang).text("{names}", {"names": tuple(map(player, NAMES))})
    assert said == three
    assert renderer(lang).text("{names}", {"names": (player("p1"), player("p2"))}) == two
    assert renderer(lang).text("{names}", {"names": (player("p3"),)}) == "Cid"


def test_a_vote_count_stays_a_row_of_commas():
    """A tally is a table, not prose: no "and" before its last entry."""
    count = (Tally(player("p2"), 2), Tally(player("p1"), 1))
    assert renderer("de").text("{tally}", {"tally": count}) == "Bob (2), Ann (1)"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Abduct or Exchange"), ("de", "Entführen oder Austauschen"),
    ("ru", "Похищение или Подмена")])
def test_alternatives_are_joined_with_or_and_survive_the_outbox(lang, said):
    choices = Either((Ref("action", "abduct"), Ref("action", "exchange")))
    assert decode(encode(choices)) == choices  # stored as alternatives, not as a list
    assert renderer(lang, "changelings").text("{action}", {"action": choices}) == said


def test_the_service_passes_its_lists_to_the_renderer_not_joined():
    """A name the bot cannot tell apart is asked back with the candidates as a list."""
    said = renderer("de").text(texts.SEVERAL_CALLED, {"name": "B", "names": ("Bob", "bob")})
    assert said == "„B“ passt auf mehrere Spieler: Bob und bob. Bitte schreib den vollen Namen."


# 2. extending and shortening a deadline ----------------------------------------------------

def _host_extends(minutes: int) -> Text:
    game = new_game(load_ruleset("changelings"), 8, 5)
    outcome = game.apply(Extend(minutes, at=game.state.clock + 1))
    [text] = [m.text for m in outcome.messages if not isinstance(m.audience, ToHost)]
    return text


@pytest.mark.parametrize(("lang", "longer", "shorter"), [
    ("en", "The host extended the deadline by 30 minutes.",
     "The host shortened the deadline by 30 minutes."),
    ("de", "Die Spielleitung hat die Frist um 30 Minuten verlängert.",
     "Die Spielleitung hat die Frist um 30 Minuten verkürzt."),
    ("ru", "Ведущий продлил срок на 30 минут.", "Ведущий сократил срок на 30 минут."),
])
def test_a_deadline_is_extended_or_shortened_never_moved_by_a_negative(lang, longer, shorter):
    assert renderer(lang).render(_host_extends(30)) == longer
    assert renderer(lang).render(_host_extends(-30)) == shorter


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The deadline can be extended by up to 10,080 minutes (7 days) or shortened by up "
           "to 420 minutes, as much as is left."),
    ("de", "Die Frist lässt sich um bis zu 10.080 Minuten (7 Tage) verlängern oder um bis zu "
           "420 Minuten verkürzen – so viel ist noch übrig."),
    ("ru", "Срок можно продлить не больше чем на 10\xa0080 минут (7 дней) или сократить не "
           "больше чем на 420 минут — столько осталось."),
])
def test_extends_bounds_are_said_as_two_lengths(lang, said):
    text = Text(texts.EXTEND_RANGE[0], {"count": 420, "high": 10_080,
                                        "longest": span(7 * 86400)}, texts.EXTEND_RANGE[1], 420)
    assert renderer(lang).render(text) == said
    assert "-" not in renderer(lang).render(text)


# 3. durations ------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "hours_25", "hours_34", "hours_2"), [
    ("en", "1 day 1 hour", "1 day 10 hours", "2 hours"),
    ("de", "1 Tag 1 Stunde", "1 Tag 10 Stunden", "2 Stunden"),
    ("ru", "1 день 1 час", "1 день 10 часов", "2 часа"),
])
def test_a_day_and_some_hours_are_not_rounded_to_a_day(lang, hours_25, hours_34, hours_2):
    words = renderer(lang).word
    assert words(duration(25 * 3600)) == hours_25
    assert words(duration(34 * 3600 + 1700)) == hours_34  # 34 h 28 min: to the nearest hour
    assert words(duration(2 * 3600)) == hours_2
    assert words(duration(48 * 3600)) == {"en": "2 days", "de": "2 Tage", "ru": "2 дня"}[lang]


# 4. language names -------------------------------------------------------------------------

def test_languages_are_named_not_coded():
    assert [own_name(code) for code in LANGS] == ["English", "Deutsch", "Русский"]
    assert name_in("ru", "de") == "Russisch" and name_in("de", "ru") == "немецкий"
    assert choice_name("ru", "de") == "Russisch (Русский)"
    assert choice_name("de", "de") == "Deutsch"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "I speak German (Deutsch), English, and Russian (Русский)."),
    ("de", "Ich spreche Deutsch, Englisch (English) und Russisch (Русский)."),
    ("ru", "Я говорю на языках: немецкий (Deutsch), английский (English) и русский."),
])
def test_the_language_answer_names_every_language(lang, said):
    choices = tuple(Ref("language_choice", code) for code in ("de", "en", "ru"))
    assert renderer(lang).text(texts.UNKNOWN_LANGUAGE, {"names": choices}) == said


def test_a_language_is_read_by_its_code_or_any_of_its_names():
    for typed, code in [("de", "de"), ("Deutsch", "de"), ("german", "de"), ("Немецкий", "de"),
                        ("RU", "ru"), ("Russisch", "ru"), ("русский", "ru"), ("English", "en"),
                        ("англий ский", "en")]:
        assert read_language(typed) == code, typed
    assert read_language("fr") is None and read_language("") is None


def test_the_language_setting_shows_a_name():
    language = setting("language", "ru")
    assert renderer("de").value(language) == "Sprache: Russisch"
    assert renderer("ru").value(language).endswith("русский")


# 5. number words ---------------------------------------------------------------------------

def test_small_counts_of_prose_are_words_large_ones_and_plain_counts_digits():
    assert [number_words(n, "en", "w") for n in (1, 2, 12)] == ["one", "two", "twelve"]
    assert number_words(13, "en", "w") is None and number_words(0, "de", "w") is None
    assert number_words(2, "de", "W") == "Zwei"
    assert number_words(1, "de", "wf") == "eine"
    assert [number_words(n, "ru", "wf") for n in (1, 2, 5)] == ["одна", "две", "пять"]
    assert number_words(1, "ru", "wn") == "одно"
    said = renderer("de").text("{n:W} | {n} | {big:w} | {big:n}", {"n": 2, "big": 10_080})
    assert said == "Zwei | 2 | 10080 | 10.080"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Dawn. Two chalk outlines on the pavement: Ann and Bob."),
    ("de", "Morgengrauen. Zwei Kreideumrisse auf dem Pflaster: Ann und Bob."),
    ("ru", "Рассвет. На брусчатке два меловых контура: Ann и Bob."),
])
def test_the_morning_counts_its_dead_in_words(lang, said):
    text = Text("Dawn. One chalk outline on the pavement: {names}.",
                {"count": 2, "names": (player("p1"), player("p2"))},
                "Dawn. {count:W} chalk outlines on the pavement: {names}.", 2)
    assert renderer(lang, "alchemists").render(text) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Careful, everypony: thirteen"), ("de", "Aufgepasst"), ("ru", "Осторожно")])
def test_a_count_above_twelve_stays_digits(lang, said):
    text = Text("Careful, everypony: {count:w} changeling is hiding among you!", {"count": 13},
                "Careful, everypony: {count:w} changelings are hiding among you!", 13)
    rendered = renderer(lang, "changelings").render(text)
    assert "13" in rendered and rendered.startswith(said.split(":")[0])


# 6. a forum deadline by its weekday and clock time -----------------------------------------

TUESDAY_EVENING = datetime(2026, 12, 8, 19, 30, tzinfo=ZoneInfo("Europe/Berlin")).timestamp()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Day 2 lasts until Tuesday, 7:30\u202fPM."),
    ("de", "Tag 2 dauert bis Dienstag, 19:30 Uhr."),
    ("ru", "День 2 продлится до вторника, 19:30."),
])
def test_a_forum_window_is_told_with_its_weekday_and_clock(lang, said):
    text = renderer(lang).text(texts.WINDOW_DUE, {"phase": Ref("phase", "day 2"),
                                                  "due": due(TUESDAY_EVENING, "Europe/Berlin")})
    assert text == said


def test_the_clock_is_the_games_time_zone():
    said = renderer("de").word(due(TUESDAY_EVENING, "Europe/Moscow"))
    assert said == "Dienstag, 21:30 Uhr"
