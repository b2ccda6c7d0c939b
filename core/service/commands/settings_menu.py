"""The host's settings menu (`/config`, like GreyWolf's): the next game's settings as pages
of buttons in the host's private chat — rule set, language, pace, time zone, each window's
timer, the role list, each option with its allowed values. Text-only platforms show the
same pages as numbered options (adapters/text_choices.py).

The menu is generated from what the rule set declares (its roles, `default_options`,
`option_choices`, `player_options`, its timed windows and their bounds), and it changes
nothing itself: each press is the lobby's own command (`/pace`, `/setroles`, `/option`,
`/timer`, …) with the same checks and the same
refusals; a refused change leaves the menu as it was, an accepted one edits the menu's
message in place with the new values. Its first two buttons say whether its changes are
kept for the group's next games or made for this game only (the commands' `--once`).

Only the game's host or an admin of its group opens it (checked when it opens; the menu is
then that person's alone). Each `/config` opens a fresh menu and makes every older one of that
person stale; a press on a stale menu, on a menu of a game that has started or ended, or by
anyone else changes nothing."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, assert_never

from core.engine.log_codec import encode
from core.engine.messages import Ref, RefKind
from core.engine.registry import available, load_ruleset
from core.i18n import available_locales
from core.languages import own_name
from core.spoken import SpokenKind, span
from core.storage.models import Chat, GameRecord, Identity
from core.storage.states import GameStatus

from ..games.deadline_times import DEFAULT_TZ, PACES
from ..games.timers import pace_of, shown_timers
from ..messages import menu_texts as mt
from ..messages import outbox, texts
from ..messages import setting_texts as st
from ..messages.button_commands import MenuChange, MenuPage, MenuSet, MenuShow
from ..messages.buttons import button
from ..messages.payloads import (
    KeyboardPayload,
    Label,
    NameLabel,
    Part,
    StoredButton,
    TextLabel,
    WordsLabel,
    part,
)
from ..ports.replies import Reply
from ..rows.game_rows import relock
from ..telling.settings_view import current_options, options_overview, shown_value
from ..telling.sign_up_fit import fitting_values
from .context import ServiceContext
from .host_settings import signed_up
from .reach import chat_title
from .remembered import ONCE
from .timers import timer_line, timers_overview

#: a few time zones offered as buttons (any other by command); the game's own comes first
ZONES = ("Europe/Berlin", "Europe/Moscow", "Europe/London", "Europe/Kyiv", "UTC",
         "America/New_York", "America/Los_Angeles", "Asia/Almaty")
#: a page: its text, and its buttons (without the last, "Back" or "Close")
Page = tuple[tuple[Part, ...], list[tuple[Label, MenuShow | MenuSet]]]
#: the page "Back" returns to from a page of values (from any other: the main page)
UP: dict[MenuPage, MenuPage] = {"option": "options", "timer": "timers"}
#: the lengths a window's timer page offers at the quick pace (those within its bounds)
DURATIONS = (60, 120, 180, 300, 600, 900, 1800, 3600, 3 * 3600, 86400)
#: the clock times it offers at the forum pace
CLOCK_TIMES = ("12:00", "18:00", "19:00", "20:00", "21:00", "22:00", "23:00")
#: a count's page offers every value that fits the sign-up when there are no more than this
FEW = 8
#: after a change, the page the menu shows (several roles are added one after another)
AFTER: dict[MenuChange, MenuPage] = {"ruleset": "main", "language": "main", "pace": "main",
                                     "zone": "main", "add": "roles", "remove": "roles",
                                     "default": "roles", "option": "options",
                                     "timer": "timers", "scope": "main"}
#: the settings the group keeps (all but the rule set): a change of one in "this game only"
#: mode is its command with `--once`
KEPT: frozenset[MenuChange] = frozenset(AFTER) - {"ruleset", "scope"}


class SettingsMenu:
    """Opens the menu and answers its presses, through the lobby's commands."""

    def __init__(self, service: ServiceContext) -> None:
        self.service = service

    # ------------------------------------------------------------------ opening
    async def open(self, chat: Chat, person: Identity, admin: bool) -> None:
        """/config in the group: its game's menu, sent to the host's (or admin's) private
        chat, where its buttons are his alone."""
        row = await self.service.current_game(chat)
        if row is None:
            raise Reply(texts.NO_GAME)
        if row.host_id != person.id and not admin:
            raise Reply(texts.NOT_HOST)
        await self._open(row, person)

    async def open_private(self, person: Identity) -> None:
        """/config in the private chat: the menu of the newest game in sign-up he hosts."""
        row = await GameRecord.filter(host_id=person.id, status=GameStatus.LOBBY) \
            .order_by("-id").first()
        if row is None:
            raise Reply(mt.MENU_NO_GAME)
        await self._open(row, person)

    async def _open(self, row: GameRecord, person: Identity) -> None:
        if row.status != GameStatus.LOBBY:
            raise Reply(mt.MENU_ONLY_LOBBY)
        if person.anonymous:  # nobody the bot could write to
            raise Reply(texts.ANONYMOUS_CANNOT_PLAY)
        await relock(row)
        replace = f"menu-{row.id}-{person.id}-{secrets.token_hex(4)}"
        menus = {**(row.settings or {}).get("menus", {}), str(person.id): replace}
        row.settings = {**row.settings, "menus": menus}
        await row.save(update_fields=["settings"])
        await self._show(row, person, MenuShow("main", person.id, replace))

    # ------------------------------------------------------------------ presses
    async def press(self, row: GameRecord, command: MenuShow | MenuSet, person: Identity,
                    in_private: bool) -> Reply | None:
        """A menu's button: only by the one it was opened for, in his private chat, on his
        newest menu, while the game is in sign-up. A change is answered "Saved"."""
        if not in_private or command.identity != person.id:
            raise Reply(texts.NOT_YOUR_BUTTON)
        current = (row.settings or {}).get("menus", {}).get(str(person.id))
        if row.status != GameStatus.LOBBY or current != command.replace:
            raise Reply(texts.STALE_BUTTON)
        match command:
            case MenuShow():
                await self._show(row, person, command)
                return None
            case MenuSet("scope", value, identity, replace):
                await relock(row)
                await self._scope(row, person, once=value == "once")
                await self._show(row, person, MenuShow("main", identity, replace))
                return None
            case MenuSet(change, value, identity, replace, option):
                chat = await row.chat
                word, rest = self._as_command(row, change, value, option)
                if change in KEPT and _once(row, person):
                    rest = f"{rest} {ONCE}"
                # the lobby's own command, as the menu's owner (allowed when it opened)
                room = self.service.timers if change == "timer" else self.service.lobby
                await room.handle(word, rest, chat, person, True)
                fresh = await GameRecord.get(id=row.id)
                await self._show(fresh, person, MenuShow(AFTER[change], identity, replace,
                                                         option), saved=True)
                return Reply(mt.MENU_SAVED)
            case _:
                assert_never(command)

    @staticmethod
    async def _scope(row: GameRecord, person: Identity, once: bool) -> None:
        """The menu's mode: its changes kept for the group, or for this game only."""
        others = [i for i in (row.settings or {}).get("menu_once", []) if i != person.id]
        row.settings = {**row.settings, "menu_once": [*others, person.id] if once else others}
        await row.save(update_fields=["settings"])

    @staticmethod
    def _as_command(row: GameRecord, change: MenuChange, value: str,
                    option: str) -> tuple[str, str]:
        """The lobby command a change is (its word and what follows it)."""
        settings = row.settings or {}
        roles: list[str] = list(settings.get("roles") or [])
        match change:
            case "ruleset" | "language" | "pace":
                return change, value
            case "zone":
                return "pace", f"{settings.get('pace') or PACES[0]} {value}"
            case "add":
                return "setroles", ", ".join([*roles, value])
            case "remove":
                if value in roles:
                    roles.remove(value)
                return "setroles", ", ".join(roles) if roles else "default"
            case "default":
                return "setroles", "default"
            case "option":
                return "option", f"{option} {value}"
            case "timer":
                return "timer", f"{option} {value}"
            case "scope":  # not a command (answered by `press` itself)
                return "", ""
            case _:
                assert_never(change)

    # ------------------------------------------------------------------ pages
    async def _show(self, row: GameRecord, person: Identity, at: MenuShow,
                    saved: bool = False) -> None:
        """The page `at` asks for, edited into the menu's message."""
        head: tuple[Part, ...] = (part(mt.MENU_SAVED),) if saved else ()
        if at.page == "closed":
            await outbox.to_person(person, KeyboardPayload(
                (part(mt.MENU_CLOSED),), (), at.replace), game=row)
            return
        parts, choices = self._page(row, await row.chat, at, await signed_up(row),
                                    _once(row, person))
        buttons: list[StoredButton] = []
        for label, command in choices:
            buttons.append(await button(row, None, label, command))
        back = MenuShow(UP.get(at.page, "main"), at.identity, at.replace)
        last = MenuShow("closed", at.identity, at.replace) if at.page == "main" else back
        buttons.append(await button(row, None, TextLabel(
            mt.BUTTON_CLOSE if at.page == "main" else mt.BUTTON_BACK), last))
        await outbox.to_person(person, KeyboardPayload(
            (*head, *parts), tuple(buttons), at.replace, asks=person.id), game=row)

    def _page(self, row: GameRecord, chat: Chat, at: MenuShow, players: list[str],
              once: bool) -> Page:
        """A page's text and its buttons (without the last, "Back" or "Close"); `players`,
        the names signed up; `once`, whether the menu's changes are for this game only."""
        settings = row.settings or {}
        ruleset = load_ruleset(row.ruleset)
        tz = str(settings.get("tz") or DEFAULT_TZ)

        def show(page: MenuPage, option: str = "") -> MenuShow:
            return MenuShow(page, at.identity, at.replace, option)

        def change(what: MenuChange, value: str, option: str = "") -> MenuSet:
            return MenuSet(what, value, at.identity, at.replace, option)

        match at.page:
            case "main" | "closed":
                return ((part(mt.MENU_HEAD, chat=chat_title(chat),
                              ruleset=Ref(RefKind.RULESET, row.ruleset),
                              pace=Ref(SpokenKind.OPTION_VALUE, str(settings.get("pace") or "")),
                              tz=tz,
                              language=own_name(chat.locale) if chat.locale else "—"),
                         _roles_part(settings),
                         part(mt.MENU_SCOPE_ONCE if once else mt.MENU_SCOPE_GROUP)),
                        [(TextLabel(mt.BUTTON_SCOPE_GROUP if once else
                                    mt.BUTTON_SCOPE_GROUP_CHOSEN), change("scope", "group")),
                         (TextLabel(mt.BUTTON_SCOPE_ONCE_CHOSEN if once else
                                    mt.BUTTON_SCOPE_ONCE), change("scope", "once")),
                         (TextLabel(mt.BUTTON_RULESET), show("ruleset")),
                         (TextLabel(mt.BUTTON_LANGUAGE), show("language")),
                         (TextLabel(mt.BUTTON_PACE), show("pace")),
                         (TextLabel(mt.BUTTON_ZONE), show("zone")),
                         (TextLabel(mt.BUTTON_TIMERS), show("timers")),
                         (TextLabel(mt.BUTTON_ROLES), show("roles")),
                         (TextLabel(mt.BUTTON_OPTIONS), show("options"))])
            case "ruleset":
                return ((part(mt.MENU_PICK_RULESET),),
                        [(NameLabel(Ref(RefKind.RULESET, r)), change("ruleset", r))
                         for r in sorted(available())])
            case "language":
                return ((part(mt.MENU_PICK_LANGUAGE),),
                        [(WordsLabel(own_name(code)), change("language", code))
                         for code in available_locales()])
            case "pace":
                return ((part(mt.MENU_PICK_PACE, tz=tz),),
                        [(NameLabel(Ref(SpokenKind.OPTION_VALUE, p)), change("pace", p))
                         for p in PACES])
            case "zone":
                zones = (tz, *(z for z in ZONES if z != tz))
                return ((part(mt.MENU_PICK_ZONE, tz=tz),),
                        [(WordsLabel(z), change("zone", z)) for z in zones])
            case "roles":
                listed = list(settings.get("roles") or [])
                return ((_roles_part(settings),),
                        [*((_role_label(mt.BUTTON_ADD_ROLE, r), change("add", r))
                           for r in ruleset.roles),
                         *((_role_label(mt.BUTTON_REMOVE_ROLE, r), change("remove", r))
                           for r in dict.fromkeys(listed)),
                         (TextLabel(mt.BUTTON_DEFAULT_DEAL), change("default", ""))])
            case "options":
                values = current_options(row)
                return ((*options_overview(row).parts, part(mt.MENU_PICK_OPTION)),
                        [(TextLabel(mt.BUTTON_OPTION, encode({
                            "title": Ref(SpokenKind.OPTION_NAME, name),
                            "value": Ref(SpokenKind.OPTION_VALUE, shown_value(values[name]))})),
                          show("option", name))
                         for name in _menu_options(row)])
            case "option" if at.option in ruleset.player_options:
                name = at.option
                return ((part(mt.MENU_PICK_PLAYER, title=Ref(SpokenKind.OPTION_NAME, name),
                              value=Ref(SpokenKind.OPTION_VALUE, shown_value(
                                  current_options(row).get(name)))),),
                        [*((WordsLabel(p), change("option", p, name)) for p in players),
                         (TextLabel(st.DRAWN), change("option", "", name))])
            case "option":
                name = at.option
                value = current_options(row).get(name)
                return ((part(mt.MENU_PICK_VALUE, title=Ref(SpokenKind.OPTION_NAME, name),
                              value=Ref(SpokenKind.OPTION_VALUE, shown_value(value)),
                              about=Ref("option", name)),),
                        [(NameLabel(Ref(SpokenKind.OPTION_VALUE, v)), change("option", v, name))
                         for v in allowed_values(row, name, value, len(players))])
            case "timers":
                return ((*timers_overview(ruleset, row).parts, part(mt.MENU_PICK_TIMER)),
                        [(_line_label(timer_line(spec, preset, tz)), show("timer", spec.id))
                         for spec, preset in shown_timers(ruleset, settings)])
            case "timer":
                return self._timer_page(row, at.option, tz, change)
            case _:
                assert_never(at.page)

    @staticmethod
    def _timer_page(row: GameRecord, window: str, tz: str,
                    change: Callable[[MenuChange, str, str], MenuSet]) -> Page:
        """One window's timer: the lengths within its bounds (quick pace) or clock times
        (forum pace) as buttons, each the command `/timer WINDOW VALUE`."""
        ruleset = load_ruleset(row.ruleset)
        settings = row.settings or {}
        spec = ruleset.window(window)
        current = next((line for s, p in shown_timers(ruleset, settings) if s.id == window
                        for line in (timer_line(s, p, tz),)), None)
        if spec is None or current is None:  # a window of another rule set: nothing to set
            return (part(mt.MENU_PICK_TIMER),), []
        if pace_of(settings) == "forum":
            return ((current, part(mt.MENU_PICK_CLOCK, tz=tz, window_id=spec.id)),
                    [(WordsLabel(clock), change("timer", clock, spec.id))
                     for clock in CLOCK_TIMES])
        return ((current, part(mt.MENU_PICK_DURATION, window_id=spec.id)),
                [(NameLabel(span(seconds)), change("timer", f"{seconds}s", spec.id))
                 for seconds in DURATIONS if spec.bounds.holds(seconds)])


def _roles_part(settings: dict[str, Any]) -> Part:
    roles = settings.get("roles")
    if not roles:
        return part(texts.ROLES_BY_DEFAULT)
    return part(*texts.ROLES_CURRENT, count=len(roles),
                roles=tuple(Ref(RefKind.ROLE, r) for r in roles))


def _line_label(line: Part) -> TextLabel:
    """A timer's line ("Vote: 4 minutes") as a button's label."""
    return TextLabel(line.key, line.params)


def _role_label(key: str, role: str) -> TextLabel:
    return TextLabel(key, encode({"role": Ref(RefKind.ROLE, role)}))


def _menu_options(row: GameRecord) -> list[str]:
    """The options a host sets by button: every option the rule set explains (one whose
    value names a player offers those signed up)."""
    ruleset = load_ruleset(row.ruleset)
    return [name for name in ruleset.default_options if name in ruleset.option_about]


def _once(row: GameRecord, person: Identity) -> bool:
    """Whether the person's menu makes its changes for this game only."""
    return person.id in (row.settings or {}).get("menu_once", [])


def allowed_values(row: GameRecord, name: str, value: Any, signed: int) -> tuple[str, ...]:
    """The values an option's page offers, as the host would type them: its declared
    choices, on and off for a yes/no, and for a count the few that fit the sign-up (the
    number of changelings: 0, 2, 3, 4), or where most would, the neighbours of its value (one
    less, one more; any other by command)."""
    ruleset = load_ruleset(row.ruleset)
    default = ruleset.default_options.get(name)
    choices = ruleset.option_choices.get(name)
    if choices is not None:
        return tuple(choices)
    if isinstance(default, bool):
        return ("on", "off")
    if isinstance(default, int) and isinstance(value, int):
        counts = list(range(ruleset.max_players + 1))
        fitting = fitting_values(ruleset, current_options(row), name, counts, signed)
        if len(fitting) <= FEW:
            return tuple(str(v) for v in fitting)
        return tuple(str(v) for v in (value - 1, value + 1) if v >= 0)
    return ()
