"""What the host reads of numbers, times and languages in a real sign-up and game (issue 33):
a forum-pace window told with its weekday and clock time, /extend's bounds as two lengths,
/language answered with language names and read by them."""

from __future__ import annotations

from .helpers import PLAYERS, open_chat

ROLES = "changeling,changeling,researcher,shield,pony,pony,pony"


async def forum_game(db_url: str, locale: str = "en"):
    chat = await open_chat(db_url, locale=locale)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /option random_lovers false", "Ann: /pace forum Europe/Berlin",
               f"Ann: /setroles {ROLES}")
    return chat, await chat("Ann: /startgame")


async def test_a_forum_window_opens_with_its_weekday_and_clock_time(db_url):
    """Where the day's opener says "until the deadline", the group reads when that is, in
    the game's time zone, as the forum's own posts say it."""
    _, started = await forum_game(db_url)
    assert "[group] Day 1 (mayor election) lasts until Thursday, 7:30\u202fPM." in started


async def test_a_forum_window_in_german_and_russian(db_url):
    chat, started = await forum_game(db_url, "de")
    assert any(line.startswith("[group] Tag 1") and line.endswith(
        " dauert bis Donnerstag, 19:30 Uhr.") for line in started)
    night = await chat("Ann: /language ru", ":wait 1d")
    assert any(line.startswith("[group] Ночь 1") and line.endswith(
        " продлится до пятницы, 22:30.") for line in night)


async def test_a_quick_window_tells_no_clock(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /option random_lovers false", f"Ann: /setroles {ROLES}")
    assert not any(" lasts until " in line for line in await chat("Ann: /startgame"))


async def test_extend_says_its_bounds_and_its_direction(db_url):
    chat, _ = await forum_game(db_url)
    await chat(":wait 1d")  # night 1, due at 22:30, nine and a half hours away
    said = await chat("Ann: /extend -100000", "Ann: /extend -30", "Ann: /extend 30")
    assert said[:3] == [
        "[to Ann] The deadline can be extended by up to 10,080 minutes (7 days) or shortened "
        "by up to 570 minutes, as much as is left.",
        "[group] The host shortened the deadline by 30 minutes.",
        "[group] Time left now: 9 hours, until Friday, 2 January, 10:00\u202fPM."]
    assert "[group] The host extended the deadline by 30 minutes." in said


async def test_language_is_answered_and_read_by_names(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings")
    assert await chat("Bob: /language fr") == [
        "[to Bob] I speak German (Deutsch), English, and Russian (Русский)."]
    assert "[group] Ab jetzt spreche ich hier Deutsch." in await chat("Ann: /language Deutsch")
    assert await chat("Ann: /language fr") == [
        "[to Ann] Ich spreche Deutsch, Englisch (English) und Russisch (Русский)."]
    assert "[group] Теперь я говорю здесь по-русски." in await chat("Ann: /language русский")
