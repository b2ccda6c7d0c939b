"""The host's timers per window (/timer) through the service on the console: set before the
start and, for a window not open yet, during the game; refused with the allowed range in the
host's language; windows that last what the host set, at the quick pace (durations) and the
forum pace (clock times in the game's time zone), with reminders and /extend working as
before; whole games of both rule sets with a restart in the middle."""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from adapters.console.adapter import CONSOLE_CHAT
from adapters.console.demo import NAMES, _pick
from core.service.commands.local import next_due, running, window_of
from core.service.games.deadline_times import window_key
from core.service.games.deadlines import pending_close
from core.storage.models import Deadline
from core.storage.states import DeadlineKind, DeadlineState

from .helpers import PLAYERS, Chat, open_chat, started_changelings, the_game


async def settings_now() -> dict:
    return dict((await the_game()).settings)


async def left_in_window(chat: Chat) -> float:
    close = await pending_close((await the_game()).id)
    assert close is not None
    return close.due_at - chat.session.clock.now()


async def test_timer_alone_shows_every_window_of_the_rule_set(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame alchemists")
    assert await chat("Bob: /timer") == [
        "[group] Timers at the quick pace (the host sets them with /timer WINDOW TIME):",
        "[group] night: 1 minute 30 seconds", "[group] vote: 4 minutes",
        "[group] after the verdict: 45 seconds"]


async def test_the_lobby_status_shows_the_timers_as_set(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", "Ann: /timer vote 2m30s", "Ann: /pace forum",
               "Ann: /timer vote 21:00", "Ann: /timer dusk 2 days")
    lines = await chat("Cid: /status")
    assert "[group] Timers at the forum pace (the host sets them with /timer WINDOW TIME):" \
        in lines
    assert "[group] vote: until 21:00 (Europe/Berlin)" in lines
    assert "[group] dusk: 2 days" in lines
    assert "[group] mayor election: until 19:30 (Europe/Berlin)" in lines  # the default
    await chat("Ann: /pace quick")  # each pace keeps its own timers
    assert "[group] vote: 2 minutes 30 seconds" in await chat("Cid: /status")


@pytest.mark.parametrize(("typed", "seconds"), [
    ("10m", 600), ("2m30s", 150), ("10 Minuten", 600), ("10 минут", 600),
    ("1 Std. 30 Min.", 5400), ("2 дня", 172800), ("90 Sek.", 90), ("1h", 3600),
    ("3 мин", 180), ("2 Tage", 172800), ("5", 300)])
async def test_a_duration_is_read_in_any_of_the_three_languages(db_url, typed, seconds):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings")
    await chat(f"Ann: /timer vote {typed}")
    assert (await settings_now())["timers"] == {"quick": {"vote": seconds}}


async def test_a_window_is_named_by_its_id_or_its_name_in_any_language(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", "Ann: /timer mayor election 5m",
               "Ann: /timer Abenddämmerung 2 Min.", "Ann: /timer рассвет 1 мин",
               "Ann: /timer reactions 1m")
    assert (await settings_now())["timers"]["quick"] == {
        "election": 300, "dusk": 120, "dawn": 60, "reactions": 60}


@pytest.mark.parametrize(("locale", "line", "answer"), [
    ("en", "Ann: /timer vote 10s",
     "[to Ann] vote: a timer must lie between 30 seconds and 7 days."),
    ("de", "Ann: /timer vote 8 Tage",
     "[to Ann] Abstimmung: Eine Frist beträgt mindestens 30 Sekunden und höchstens 7 Tage."),
    ("ru", "Ann: /timer vote 20 сек",
     "[to Ann] голосование: таймер в пределах — минимум 30 секунд, максимум 7 дней."),
    ("en", "Ann: /timer lunch 10m", "[to Ann] This game has no window called “lunch”. Its "
     "windows: mayor election, vote, after the verdict, dusk, and dawn."),
    ("ru", "Ann: /timer обед 10 минут", "[to Ann] Этапа «обед» в этой игре нет. Её этапы: "
     "выборы мэра, голосование, после приговора, сумерки и рассвет."),
    ("en", "Ann: /timer vote soon", "[to Ann] Write /timer WINDOW TIME: a duration like "
     "/timer vote 10m or 2m30s, or at the forum pace a clock time like /timer vote 21:00."),
    ("en", "Ann: /timer vote", "[to Ann] Write /timer WINDOW TIME: a duration like "
     "/timer vote 10m or 2m30s, or at the forum pace a clock time like /timer vote 21:00."),
    ("en", "Ann: /timer vote 25:00", "[to Ann] Write /timer WINDOW TIME: a duration like "
     "/timer vote 10m or 2m30s, or at the forum pace a clock time like /timer vote 21:00."),
    ("en", "Ann: /timer vote 21:00", "[to Ann] A clock time belongs to the forum pace "
     "(/pace forum); at the quick pace give a duration, like 10m."),
    ("de", "Bob: /timer vote 10m", "[to Bob] Das darf nur die Spielleitung."),
])
async def test_a_refused_timer_changes_nothing_and_says_why(db_url, locale, line, answer):
    chat = await open_chat(db_url, locale)
    await chat("Ann: /newgame changelings", "Bob: /join", "Ann: /timer dawn 2m")
    before = await settings_now()
    assert await chat(line) == [answer]
    assert await settings_now() == before


async def test_the_quick_pace_windows_last_what_the_host_set(db_url):
    """The election lasts the host's 10 minutes: its voters are reminded a quarter before
    its end, /extend moves it on, and it closes then, not at the rules' 3 minutes."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /option random_lovers false", "Ann: /timer election 10m",
               "Ann: /timer dusk 5m")
    await chat("Ann: /startgame")
    assert await left_in_window(chat) == 600
    remind = await Deadline.filter(kind=DeadlineKind.REMIND, state=DeadlineState.PENDING).first()
    assert remind is not None and remind.due_at == chat.session.clock.now() + 450
    await chat(":wait 300s")
    assert (await the_game()).window == 1  # the rules' 3 minutes are long gone
    await chat("Ann: /extend 2")
    assert await left_in_window(chat) == 420
    await chat(":wait 421s")
    assert (await the_game()).window == 2  # closed; the night's dusk lasts the host's 5 minutes
    assert await left_in_window(chat) == 300


async def test_during_the_game_only_a_window_not_open_may_change(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    assert await chat("Ann: /timer election 20m") == [
        "[to Ann] mayor election is open right now: its timer can no longer change "
        "(/extend MINUTES gives it more time)."]
    assert "timers" not in await settings_now()
    assert await chat("Ann: /timer dusk 7m") == ["[group] Timer set. dusk: 7 minutes."]
    assert await chat("Bob: /timer dawn 7m") == ["[to Bob] Only the host can do that."]
    await chat(":wait 181s")  # the election closes at the rules' 3 minutes; dusk opens
    assert await left_in_window(chat) == 420


async def test_at_the_forum_pace_a_clock_time_is_the_next_in_the_games_zone(db_url):
    """A clock that starts at today's date: the vote closes at the next 21:00 in Moscow."""
    chat = await open_chat(db_url)
    chat.session.clock.current = float(int(time.time()))
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /option random_lovers false", "Ann: /pace forum Europe/Moscow",
               "Ann: /timer election 21:00")
    await chat("Ann: /startgame")
    assert await left_in_window(chat) == pytest.approx(
        _expected_left("21:00", chat.session.clock.now(), "Europe/Moscow"))
    local = datetime.fromtimestamp(chat.session.clock.now() + await left_in_window(chat),
                                   ZoneInfo("Europe/Moscow"))
    assert (local.hour, local.minute) == (21, 0) or await left_in_window(chat) == 30


async def _whole_game(chat: Chat, names: list[str], rng: random.Random,
                      expected: dict[str, float | str], tz: str) -> dict[str, int]:
    """Play to the end as adapters/console/demo.py does, checking each window's deadline as
    it opens against the host's timers (`expected`: window -> seconds or "HH:MM"); restart
    the service once, in the middle. Returns how many windows of each kind were checked."""
    checked: dict[str, int] = {}
    seen_window = -1
    answered: dict[str, object] = {"group": chat.session.adapter.keyboards.get(
        str(CONSOLE_CHAT))}
    for round_number in range(400):
        now = await running(chat.session.service.games, "console", str(CONSOLE_CHAT))
        if now is None:
            return checked
        if now.window != seen_window:  # a window has just opened, at this very clock time
            seen_window = now.window
            window = window_key(now.game.state.phase.stage)
            if window in expected and not now.game.state.paused:
                left = await left_in_window(chat)
                checked[window] = checked.get(window, 0) + 1
                assert left == pytest.approx(_expected_left(
                    expected[window], chat.session.clock.now(), tz)), window
        if round_number == 6:
            await chat(":restart")
            answered = {}
        keyboards = chat.session.adapter.keyboards
        living = {p.name for p in now.game.state.players.values() if p.alive}
        for name in names:
            board = keyboards.get(name)
            while board and answered.get(name) is not board:
                answered[name] = board
                await chat.session.say(name, True, f"[{_pick(board, rng)}]")
                board = keyboards.get(name)
        group = keyboards.get(str(CONSOLE_CHAT))
        if group and answered.get("group") is not group:
            answered["group"] = group
            for name in names:
                if name in living:
                    await chat.session.say(name, False, f"[{_pick(group[:-1] or group, rng)}]")
        if await window_of(now.game_id) != now.window:
            continue
        due = await next_due(now.game_id)
        wait = 300 if due is None else max(1, int(due - chat.session.clock.now()) + 1)
        await chat(f":wait {wait}s")
    raise AssertionError("the game did not end")


def _expected_left(timer: float | str, now: float, tz: str) -> float:
    if not isinstance(timer, str):
        return float(timer)
    hour, minute = (int(part) for part in timer.split(":"))
    local = datetime.fromtimestamp(now, ZoneInfo(tz))
    target = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if target <= local:
        target += timedelta(days=1)
    return max(target.timestamp() - now, 30.0)


WHOLE_GAMES = {
    ("changelings", "quick"): {"election": 150, "vote": 600, "dusk": 200, "dawn": 45,
                               "reactions": 40},
    ("changelings", "forum"): {"election": "21:15", "vote": "18:00", "dusk": "23:59",
                               "dawn": 5400, "reactions": "20:30"},
    ("alchemists", "quick"): {"night": 150, "vote": 420, "reactions": 35},
    ("alchemists", "forum"): {"night": "07:45", "vote": 2 * 86400, "reactions": "12:00"},
}


@pytest.mark.parametrize(("ruleset", "pace"), sorted(WHOLE_GAMES))
async def test_a_whole_game_keeps_the_hosts_timers_across_a_restart(db_url, ruleset, pace):
    chat = await open_chat(db_url, seed=11)
    chat.session.clock.current = float(int(time.time()))  # today, not the manual epoch
    names = list(NAMES[:9])
    timers = WHOLE_GAMES[(ruleset, pace)]
    tz = "America/Argentina/Buenos_Aires"
    await chat(f"Ann: /newgame {ruleset}", *(f"{n}: /join" for n in names[1:]),
               f"Ann: /pace {pace} {tz}",
               *(f"Ann: /timer {w} {v if isinstance(v, str) else f'{int(v)}s'}"
                 for w, v in timers.items()))
    await chat("Ann: /startgame")
    checked = await _whole_game(chat, names, random.Random(5), timers, tz)
    assert (await the_game()).status == "ended"
    assert sum(checked.values()) >= 3 and len(checked) >= 2, checked


async def test_the_host_sets_a_timer_from_his_private_chat(db_url):
    """Issue 31: /timer works in the host's private chat as the menu does, for the game he
    hosts: the group is told as after /timer there, he is answered privately; anyone else,
    or a host of no game, is told so and nothing changes."""
    from .helpers import PLAYERS, open_chat, the_game

    chat = await open_chat(db_url)
    assert await chat("Ann> /timer vote 10m") == [
        "[to Ann] You host no game: /timer here sets the timers of the game you host."]
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]))
    shown = await chat("Ann> /timer")
    assert shown[0].startswith("[to Ann] Timers at the quick pace") and "[to Ann] vote: 4 " \
        "minutes" in shown
    said = await chat("Ann> /timer Abstimmung 10 Minuten")
    assert "[group] Timer set. vote: 10 minutes." in said
    assert "[to Ann] Timer set. vote: 10 minutes." in said
    assert (await the_game()).settings["timers"] == {"quick": {"vote": 600}}
    assert await chat("Ann> /timer vote 5s") == [
        "[to Ann] vote: a timer must lie between 30 seconds and 7 days."]
    assert (await chat("Bob> /timer vote 5m"))[0].startswith("[to Bob] You host no game")
    # during the game, for a window not open now
    await chat("Ann: /startgame")
    assert "[to Ann] Timer set. dusk: 2 minutes." in await chat("Ann> /timer dusk 2m")
    assert (await the_game()).settings["timers"]["quick"] == {"vote": 600, "dusk": 120}
