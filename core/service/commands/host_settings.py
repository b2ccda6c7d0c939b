"""The host's settings of a game and of its group: /language, /pace, /setroles, /option and
/settings. Each change shows in the sign-up message, edited in place (the game at a
glance), and is kept for the group's next games unless made with `--once` (this game only);
`/settings` shows what the group keeps, `/settings reset` forgets it (remembered.py)."""

from __future__ import annotations

from dataclasses import replace

from core.engine.messages import Either, Ref, RefKind
from core.engine.registry import available, load_ruleset
from core.spoken import SpokenKind
from core.storage.models import Chat, GameRecord, Identity, Seat
from core.storage.states import GameStatus

from ..games.deadline_times import DEFAULT_TZ, PACES, valid_timezone
from ..messages import outbox, texts
from ..messages import setting_texts as st
from ..messages.payloads import Part, PostPayload, post
from ..ports.replies import Reply
from ..rows.game_rows import relock
from ..telling.lobby_view import group_settings_view, show_lobby
from ..telling.settings_view import current_options, options_overview, role_id_named
from .balance import balance_note
from .group_commands import GroupCommands
from .option_values import check_fits, named_option, read_option
from .remembered import (
    forget,
    marked,
    place_of,
    remember,
    remember_choices,
    remember_locale,
    split_once,
    starting_settings,
)
from .timers import timers_overview
from .typed_values import language_choices, read_language, read_ruleset, read_value


class HostSettings(GroupCommands):
    """The settings commands (the lobby's base); a refusal raised as `Reply`."""

    async def show(self, row: GameRecord, chat: Chat, extra: tuple[Part, ...] = ()) -> None:
        """The sign-up message as the game stands, with each window's timer (and `extra`:
        the balance after a change of roles or options)."""
        await show_lobby(row, chat,
                         (*timers_overview(load_ruleset(row.ruleset), row).parts, *extra))

    async def _lobby_row(self, chat: Chat) -> GameRecord:
        row = await self.service.current_game(chat)
        if row is None:
            raise Reply(texts.NO_GAME)
        if row.status != GameStatus.LOBBY:
            raise Reply(texts.NOT_IN_LOBBY)
        return row

    async def _host_lobby(self, chat: Chat, person: Identity, admin: bool) -> GameRecord:
        row = await self._lobby_row(chat)
        await relock(row)
        if row.status != GameStatus.LOBBY:
            raise Reply(texts.NOT_IN_LOBBY)
        if row.host_id != person.id and not admin:
            raise Reply(texts.NOT_HOST)
        return row

    async def _cmd_language(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        """The language; `--once` only for this game (needs one in its sign-up)."""
        rest, once = split_once(rest)
        wanted = read_language(rest)
        if wanted is None:
            raise Reply(texts.UNKNOWN_LANGUAGE, names=language_choices())
        row = await self._lobby_row(chat) if once else await self.service.current_game(chat)
        if row is not None and row.host_id != person.id and not admin:
            raise Reply(texts.NOT_HOST)
        await remember_locale(chat, wanted, once)
        chat.locale = wanted
        await chat.save(update_fields=["locale"])
        await outbox.to_group(chat, post(texts.LANGUAGE_SET))
        if row is not None and row.status == GameStatus.LOBBY:
            marked(row, "language", once)
            await row.save(update_fields=["settings"])
            await self.show(row, chat)

    async def _cmd_ruleset(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        """Another game for the sign-up: its roles and options are the group's for that rule
        set, else its defaults (the old list names roles the new game may not have)."""
        row = await self._host_lobby(chat, person, admin)
        wanted = read_ruleset(rest.strip())
        if wanted is None:
            raise Reply(texts.UNKNOWN_RULESET, name=rest.strip(),
                        names=tuple(Ref(RefKind.RULESET, r) for r in sorted(available())))
        row.ruleset = wanted
        kept = await starting_settings(chat, wanted, "", "")
        row.settings = {**{k: v for k, v in row.settings.items() if k != "timers"},
                        "roles": kept["roles"], "options": kept["options"],
                        **({"timers": kept["timers"]} if "timers" in kept else {})}
        await row.save(update_fields=["ruleset", "settings"])
        await outbox.to_group(chat, post(texts.RULESET_CHANGED,
                                         ruleset=Ref(RefKind.RULESET, wanted)), game=row)
        await self.show(row, chat)

    async def _cmd_pace(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        rest, once = split_once(rest)
        row = await self._host_lobby(chat, person, admin)
        words = rest.split()
        pace = read_value(words[0], PACES) if words else None
        if pace is None or (len(words) > 1 and not valid_timezone(words[1])) or len(words) > 2:
            raise Reply(st.BAD_PACE,
                        paces=Either(tuple(Ref(SpokenKind.OPTION_VALUE, p) for p in PACES)))
        tz = words[1] if len(words) > 1 else row.settings.get("tz", DEFAULT_TZ)
        row.settings = {**row.settings, "pace": pace, "tz": tz}
        marked(row, "pace", once)
        await row.save(update_fields=["settings"])
        if not once:
            await remember(chat, lambda place: replace(place, pace=pace, tz=tz))
        await self.show(row, chat)

    async def _cmd_setroles(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        rest, once = split_once(rest)
        if not rest.strip():  # alone: the list as it stands, changing nothing
            row = await self._lobby_row(chat)
            roles = (row.settings or {}).get("roles")
            await outbox.to_group(chat, post(
                *texts.ROLES_CURRENT, count=len(roles),
                roles=tuple(Ref(RefKind.ROLE, r) for r in roles))
                if roles else post(texts.ROLES_BY_DEFAULT), game=row)
            return
        row = await self._host_lobby(chat, person, admin)
        ruleset = load_ruleset(row.ruleset)
        if rest.strip().lower() == "default":
            roles = None
        else:  # ids or role names in any language, separated by commas
            roles = [role_id_named(ruleset, r) for r in rest.split(",") if r.strip()]
        row.settings = {**row.settings, "roles": roles}
        marked(row, "roles", once)
        await row.save(update_fields=["settings"])
        if not once:
            await remember_choices(chat, row.ruleset, lambda choices: replace(
                choices, roles=None if roles is None else tuple(roles)))
        await self.show(row, chat, await balance_note(row))

    async def _cmd_option(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        rest, once = split_once(rest)
        if not rest.strip():  # alone: every option, its value and what it does
            row = await self._lobby_row(chat)
            await outbox.to_group(chat, options_overview(row), game=row)
            return
        row = await self._host_lobby(chat, person, admin)
        ruleset = load_ruleset(row.ruleset)
        name, raw = named_option(ruleset, rest.strip())
        players = await signed_up(row)
        value = read_option(ruleset, name, raw.strip(), players)
        check_fits(ruleset, current_options(row), name, value, len(players))
        once = once or name in ruleset.player_options  # a player is this game's alone
        row.settings = {**row.settings, "options": {**row.settings.get("options", {}),
                                                    name: value}}
        marked(row, name, once)
        await row.save(update_fields=["settings"])
        if not once:
            await remember_choices(chat, row.ruleset, lambda choices: replace(
                choices, options={**choices.options, name: value}))
        await self.show(row, chat, await balance_note(row))

    async def _cmd_settings(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        """`/settings`: what the group keeps for its next games; `/settings reset` (the
        game's host or a group admin) forgets it. The game in its sign-up keeps its own."""
        row = await self.service.current_game(chat)
        word = rest.strip().lower()
        if word == "reset":
            if not admin and (row is None or row.host_id != person.id):
                raise Reply(texts.NOT_HOST)
            await forget(chat)
            await outbox.to_group(chat, post(texts.GROUP_SETTINGS_FORGOTTEN), game=row)
        elif word:
            raise Reply(texts.BAD_SETTINGS)
        else:
            await outbox.to_group(chat, await self.group_settings(chat, row), game=row)

    async def group_settings(self, chat: Chat, row: GameRecord | None) -> PostPayload:
        """What the group keeps: for the game's rule set, or (no game) for every one."""
        defaults = self.service.defaults
        return group_settings_view(await place_of(chat), chat.locale, defaults.pace,
                                   defaults.timezone,
                                   [row.ruleset] if row is not None else sorted(available()))



async def signed_up(row: GameRecord) -> list[str]:
    """The names of those signed up, in the order they joined."""
    return [seat.identity.name for seat in await Seat.filter(game_id=row.id, active=True)
            .order_by("position").prefetch_related("identity")]
