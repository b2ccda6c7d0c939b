"""/timer: how long each window of the game lasts, set by the host before the start and,
for the windows not open now, during the game.

`/timer` alone shows every window's timer at the game's pace (anyone may ask);
`/timer WINDOW TIME` sets one (the host or a group admin): a duration in any of the bot's
languages ("10m", "2m30s", "10 Minuten", "10 минут"), or at the forum pace a local clock time
("21:00", in the game's time zone). Everything is checked before anything is saved, so a
refused timer changes nothing."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from core.engine.messages import Ref
from core.engine.registry import load_ruleset
from core.engine.ruleset import Ruleset
from core.engine.windows import Preset, WindowSpec
from core.i18n import available_locales, translations
from core.spans import Clock, read_span
from core.spoken import SpokenKind, span
from core.storage.models import Chat, GameRecord, Identity
from core.storage.states import CURRENT, GameStatus

from ..games.deadline_times import DEFAULT_TZ, window_key
from ..games.timers import pace_of, shown_timers, with_timer
from ..messages import outbox, texts
from ..messages import setting_texts as st
from ..messages.payloads import Part, PostPayload, part, post
from ..ports.replies import Reply
from ..rows.game_rows import relock
from ..telling.lobby_view import show_lobby
from .group_commands import GroupCommands
from .remembered import marked, remember_choices, split_once


class Timers(GroupCommands):
    """The host's timers per window; a refusal raised as `Reply`."""

    async def _cmd_timer(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        row = await self.service.current_game(chat)
        if row is None:
            raise Reply(texts.NO_GAME)
        if not rest.strip():
            await outbox.to_group(chat, timers_overview(load_ruleset(row.ruleset), row),
                                  game=row)
            return
        await self._set(row, chat, rest, person, admin)

    async def from_private(self, rest: str, person: Identity) -> None:
        """/timer in the host's private chat, as the settings menu works there: the game he
        hosts, in sign-up or running (several: which one only its group can tell). The
        group is told as after /timer there; he is answered here."""
        hosted = await GameRecord.filter(host_id=person.id, status__in=CURRENT).order_by("id")
        if len(hosted) > 1:
            raise Reply(texts.HOSTING_SEVERAL)
        if not hosted:
            raise Reply(st.TIMER_PRIVATE_NONE)
        row = hosted[0]
        if not rest.strip():
            await outbox.to_person(person, timers_overview(load_ruleset(row.ruleset), row),
                                   game=row)
            return
        said = await self._set(row, await row.chat, rest, person, False)
        await outbox.to_person(person, said, game=row)

    async def _set(self, row: GameRecord, chat: Chat, rest: str, person: Identity,
                   admin: bool) -> PostPayload:
        """`/timer WINDOW TIME`: checked, saved (for the group too, unless `--once`), the
        sign-up edited and the group told; what it was told is returned."""
        ruleset = load_ruleset(row.ruleset)
        await relock(row)
        if row.host_id != person.id and not admin:
            raise Reply(texts.NOT_HOST)
        if row.status not in CURRENT:
            raise Reply(texts.NO_GAME)
        rest, once = split_once(rest)
        spec, value = _window_and_value(ruleset, rest)
        settings = row.settings or {}
        if isinstance(value, Clock):
            if pace_of(settings) != "forum":
                raise Reply(texts.TIMER_CLOCK_NEEDS_FORUM)
        elif not spec.bounds.holds(value):
            raise Reply(texts.TIMER_OUT_OF_RANGE, window=Ref("window", spec.id),
                        shortest=span(spec.bounds.shortest), longest=span(spec.bounds.longest))
        if row.status == GameStatus.RUNNING:
            game = await self.service.games.load(row)
            if window_key(game.state.phase.stage) == spec.id:
                raise Reply(texts.TIMER_WINDOW_OPEN, window=Ref("window", spec.id))
        row.settings = with_timer(settings, spec.id, value)
        marked(row, f"timer:{spec.id}", once)
        await row.save(update_fields=["settings"])
        if not once:  # the group's too: its timer for this window at this pace
            await remember_choices(chat, row.ruleset, lambda choices: replace(
                choices, timers=with_timer({"pace": pace_of(settings),
                                            "timers": dict(choices.timers)},
                                           spec.id, value)["timers"]))
        if row.status == GameStatus.LOBBY:  # the sign-up shows every timer
            await show_lobby(row, chat, timers_overview(ruleset, row).parts)
        shown = Ref("window", spec.id)
        said = post(texts.TIMER_SET_CLOCK, window=shown, time=str(value), tz=_tz(row)) \
            if isinstance(value, Clock) else post(texts.TIMER_SET, window=shown,
                                                  duration=span(value))
        await outbox.to_group(chat, said, game=row)
        return said


def _window_and_value(ruleset: Ruleset, rest: str) -> tuple[WindowSpec, float | Clock]:
    """The window the host names (its id or its name in any language, which may be several
    words) and the time after it."""
    words = rest.split()
    for cut in range(len(words) - 1, 0, -1):
        found = _window_words(ruleset.id).get(_folded(" ".join(words[:cut])))
        if found is not None:
            value = read_span(" ".join(words[cut:]))
            if value is None:
                raise Reply(texts.TIMER_BAD)
            spec = ruleset.window(found)
            assert spec is not None
            return spec, value
    if len(words) == 1 and _window_words(ruleset.id).get(_folded(words[0])):
        raise Reply(texts.TIMER_BAD)
    raise Reply(texts.TIMER_UNKNOWN_WINDOW, name=_first_words(words),
                windows=tuple(Ref("window", w.id) for w in ruleset.timed_windows()))


def _first_words(words: list[str]) -> str:
    """What the host named as a window: the words before the first that reads as a time."""
    named = []
    for word in words:
        if read_span(word) is not None:
            break
        named.append(word)
    return " ".join(named or words[:1])


def _folded(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


@cache
def _window_words(ruleset_id: str) -> dict[str, str]:
    """Every way of naming a window of a rule set: its id, its name in each language."""
    ruleset = load_ruleset(ruleset_id)
    words: dict[str, str] = {}
    for spec in ruleset.timed_windows():
        words[_folded(spec.id)] = spec.id
        for locale in available_locales():
            words.setdefault(_folded(translations(locale, ruleset_id).gettext(spec.label)),
                             spec.id)
    return words


def _tz(row: GameRecord) -> str:
    return str((row.settings or {}).get("tz") or DEFAULT_TZ)


def timer_line(spec: WindowSpec, preset: Preset, tz: str) -> Part:
    """One window's timer: a duration, or a clock time (with its minimum, if it has one)."""
    window = Ref("window", spec.id)
    if isinstance(preset, tuple):
        return part(texts.TIMER_LINE_CLOCK_LEAST, window=window, time=preset[0], tz=tz,
                    duration=span(preset[1]))
    if isinstance(preset, str):
        return part(texts.TIMER_LINE_CLOCK, window=window, time=preset, tz=tz)
    return part(texts.TIMER_LINE, window=window, duration=span(preset))


def timers_overview(ruleset: Ruleset, row: GameRecord) -> PostPayload:
    """Every window's timer at the game's pace, one line each (/timer alone, /status)."""
    settings = row.settings or {}
    pace = Ref(SpokenKind.OPTION_VALUE, pace_of(settings))
    return PostPayload((part(texts.TIMERS_HEAD, pace=pace),
                        *(timer_line(spec, preset, _tz(row))
                          for spec, preset in shown_timers(ruleset, settings))))
