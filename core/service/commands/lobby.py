"""Sign-up (platform-neutral): /newgame, /join, /leave, /startgame, /endgame, /nextgame,
/spectators; the host's settings are its base (host_settings.py: the settings menu,
/config, makes its changes through them). (What anyone may ask in the group, /help,
/rules, /roles, /status, is information.py.)"""

from __future__ import annotations

import random

from core.engine import GameSetup, SetupError
from core.engine.ids import PlayerId
from core.engine.messages import Ref, RefKind
from core.engine.registry import available, load_ruleset
from core.storage.models import Chat, GameRecord, Identity, Outbox, Seat
from core.storage.states import CURRENT, GameStatus, OutboxState

from ..games.deadlines import void_all
from ..messages import button_commands as pressed
from ..messages import guide, outbox, texts
from ..messages.payloads import KeyboardPayload, PostPayload, part, post
from ..ports.howto import HowTo, howto
from ..ports.replies import Reply
from ..rows.game_rows import relock
from ..rows.unit_of_work import forget_seats
from ..telling.muting import unmute_the_dead
from ..telling.teams import close_teams
from .host_settings import HostSettings
from .reach import chat_title
from .remembered import remember_locale, starting_locale, starting_settings
from .startable import check_start
from .typed_values import read_language, read_ruleset

#: a private message in these states reached its reader, or is on its way to one who wrote
REACHED = (OutboxState.SENT, OutboxState.PENDING, OutboxState.SENDING)


class Lobby(HostSettings):
    """Sign-up and the host's settings before the start; a refusal raised as `Reply`."""

    # ------------------------------------------------------------------ sign-up
    async def _cmd_newgame(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        if await self.service.current_game(chat) is not None:
            raise Reply(texts.ALREADY_RUNNING)
        words = rest.split()
        ruleset_id = read_ruleset(words[0]) if words else default_ruleset()
        if ruleset_id is None:
            raise Reply(texts.UNKNOWN_RULESET, name=words[0],
                        names=tuple(Ref(RefKind.RULESET, r) for r in sorted(available())))
        language = read_language(words[1]) if len(words) > 1 else None
        if language is not None:  # the group's from now on
            await remember_locale(chat, language, once=False)
            chat.locale = language
            await chat.save(update_fields=["locale"])
        else:  # the group's own, after a game spoke another once
            await starting_locale(chat)
        if not person.anonymous:
            await self._not_elsewhere(person)
        row = await GameRecord.create(chat=chat, ruleset=ruleset_id, host=person,
                                      settings=await starting_settings(
                                          chat, ruleset_id, self.service.defaults.pace,
                                          self.service.defaults.timezone))
        await self._tell_the_waiting(chat, row)
        if person.anonymous:  # hosts, but is nobody the bot could seat or write to
            await outbox.to_group(chat, post(texts.ANONYMOUS_HOST), game=row)
            await self.show(row, chat)
            return
        await Seat.create(game=row, identity=person, pid="", position=0)
        forget_seats(row.id)
        await self._ask_to_open_private(chat, row, person)
        await self.show(row, chat)

    async def _ask_to_open_private(self, chat: Chat, row: GameRecord, host: Identity) -> None:
        """On a platform where the bot may not write first (`Wording.by_link`), a host it
        never reached privately (nothing sent to him, nor on its way: he may have just
        written to the bot) is asked, in the group and before the sign-up, to open that
        chat now: his settings' answers go there, long before his role card."""
        wording = self.service.wordings.get(chat.platform)
        if wording is None or not wording.by_link or await Outbox.filter(
                identity_id=host.id, private=True, status__in=REACHED).exists():
            return
        await outbox.to_group(chat, KeyboardPayload(
            (part(guide.HOST_OPEN_PRIVATE, name=host.name, how=howto(HowTo.OPEN_PRIVATE)),),
            (outbox.open_private_button(),), asks=host.id), game=row)

    async def _cmd_nextgame(self, rest: str, chat: Chat, person: Identity,
                            admin: bool) -> None:
        """/nextgame: the player is told privately when the next game here opens sign-up."""
        if person.anonymous:
            raise Reply(texts.ANONYMOUS_CANNOT_PLAY)
        waiting = list((chat.settings or {}).get("waiting", []))
        if person.id not in waiting:
            waiting.append(person.id)
            chat.settings = {**(chat.settings or {}), "waiting": waiting}
            await chat.save(update_fields=["settings"])
        await outbox.to_person(person, post(texts.NEXTGAME_NOTED,
                                                    chat=chat_title(chat)))

    async def _tell_the_waiting(self, chat: Chat, row: GameRecord) -> None:
        waiting = (chat.settings or {}).get("waiting") or []
        if not waiting:
            return
        for person in await Identity.filter(id__in=waiting):
            await outbox.to_person(person, post(
                texts.NEXTGAME_OPEN, chat=chat_title(chat),
                ruleset=Ref(RefKind.RULESET, row.ruleset)),
                game=row)
        chat.settings = {k: v for k, v in chat.settings.items() if k != "waiting"}
        await chat.save(update_fields=["settings"])

    async def _not_elsewhere(self, person: Identity, allowed: GameRecord | None = None) -> None:
        seats = await Seat.filter(identity_id=person.id, active=True,
                                  game__status__in=CURRENT).all()
        if any(allowed is None or seat.game_id != allowed.id for seat in seats):
            raise Reply(texts.IN_OTHER_GAME)

    async def _cmd_join(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        await self.press(pressed.Join(), await self._lobby_row(chat), person)

    async def _cmd_leave(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        await self.press(pressed.Leave(), await self._lobby_row(chat), person)

    async def press(self, what: pressed.Join | pressed.Leave, row: GameRecord,
                    person: Identity) -> None:
        """Join or Leave, from the sign-up's buttons or the group's commands. A press on a
        copy of the sign-up that outlived its game (one posted twice, see docs/telegram.md,
        "Never twice") is told the game is over."""
        await relock(row)
        if row.status == GameStatus.RUNNING:
            raise Reply(texts.LEAVE_RUNNING if isinstance(what, pressed.Leave)
                        else texts.NOT_IN_LOBBY)
        if row.status != GameStatus.LOBBY:
            raise Reply(texts.SIGNUP_OVER)
        chat = await row.chat
        seat = await Seat.filter(game_id=row.id, identity_id=person.id, active=True).first()
        if isinstance(what, pressed.Join):
            if person.anonymous:
                raise Reply(texts.ANONYMOUS_CANNOT_PLAY)
            if seat is not None:
                raise Reply(texts.ALREADY_JOINED)
            await self._not_elsewhere(person, allowed=row)
            count = await Seat.filter(game_id=row.id, active=True).count()
            await Seat.create(game=row, identity=person, pid="", position=count)
            forget_seats(row.id)
            await outbox.to_person(person, post(texts.JOINED_PRIVATE), game=row)
        else:
            if seat is None:
                raise Reply(texts.NOT_JOINED)
            seat.active = False
            await seat.save(update_fields=["active"])
            forget_seats(row.id)
            await outbox.to_person(person, post(texts.LEFT_PRIVATE), game=row)
        await self.show(row, chat)

    async def _cmd_spectators(self, rest: str, chat: Chat, person: Identity,
                              admin: bool) -> None:
        """Where the dead may watch: a link to the host's spectators' chat, or "off"."""
        row = await self.service.current_game(chat)
        if row is not None and row.host_id != person.id and not admin:
            raise Reply(texts.NOT_HOST)
        link = rest.strip()
        if link.lower() == "off":
            chat.settings = {k: v for k, v in chat.settings.items() if k != "spectators"}
            reply = texts.SPECTATORS_OFF
        elif link.startswith("https://") and " " not in link and len(link) <= 200:
            chat.settings = {**chat.settings, "spectators": link}
            reply = texts.SPECTATORS_SET
        else:
            raise Reply(texts.BAD_LINK)
        await chat.save(update_fields=["settings"])
        await outbox.to_group(chat, post(reply), game=row)

    async def _cmd_startgame(self, rest: str, chat: Chat, person: Identity,
                             admin: bool) -> None:
        row = await self._host_lobby(chat, person, admin)
        ruleset = load_ruleset(row.ruleset)
        seats = await Seat.filter(game_id=row.id, active=True).order_by("position") \
            .prefetch_related("identity")
        if len(seats) < ruleset.min_players:
            raise Reply(texts.TOO_FEW, count=len(seats), needed=ruleset.min_players)
        options = check_start(ruleset, row.settings, [seat.identity.name for seat in seats])
        for number, seat in enumerate(seats, start=1):
            seat.pid, seat.position = f"p{number}", number
            await seat.save(update_fields=["pid", "position"])
        for name in ruleset.player_options:  # a player named by the host: his seat
            options[name] = next((seat.pid for seat in seats
                                  if options.get(name) and seat.identity.name == options[name]),
                                 "")
        forget_seats(row.id)
        settings = row.settings
        roles = settings.get("roles")
        seed = self.service.rng.randrange(1 << 31)
        if roles is not None:  # the host's list, dealt at random (the engine seats it as given)
            roles = list(roles)
            random.Random(seed).shuffle(roles)
        setup = GameSetup(
            ruleset=row.ruleset,
            players=tuple((PlayerId(seat.pid), seat.identity.name) for seat in seats),
            seed=seed,
            roles=None if roles is None else tuple(roles),
            options=tuple(options.items()),
            at=self.service.clock.now())
        try:  # "the game begins" comes before the opening and the first ballot
            await self.service.games.start(row, setup, announce=post(texts.STARTED))
        except SetupError as err:
            raise Reply.saying(err.text) from None

    async def _cmd_endgame(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        row = await self.service.current_game(chat)
        if row is None:
            raise Reply(texts.NO_GAME)
        if row.host_id != person.id and not admin:
            raise Reply(texts.NOT_HOST)
        await self.service.confirmations.ask_endgame(row, person)

    async def end_unreachable(self, person: Identity) -> None:
        """/endgame in the host's private chat: the game whose group the bot cannot reach
        (removed, or its topic deleted) ends without the group."""
        rows = await GameRecord.filter(host_id=person.id, status__in=CURRENT)
        row = next((r for r in rows if (r.settings or {}).get("lost")), None)
        if row is None:
            raise Reply(texts.ENDGAME_PRIVATE_NONE)
        await self.service.confirmations.ask_endgame(row, person)

    async def cancel(self, row: GameRecord, chat: Chat, person: Identity) -> None:
        """The host ends the game before it is decided: everybody may speak again and is
        free for another game."""
        await relock(row)
        row.status = GameStatus.CANCELLED
        await row.save(update_fields=["status"])
        if row.setup is not None:
            await unmute_the_dead(row, await self.service.games.load(row))
            await close_teams(row)
        await void_all(row.id)
        self.service.games.forget(row.id)
        await outbox.to_group(chat, post(texts.CANCELLED, host=person.name))
        if row.setup is not None:  # the roles are no secret any more
            game = await self.service.games.load(row)
            await outbox.to_group(chat, PostPayload((part(texts.ROLES_REVEALED), *(
                part(texts.PLAYER_WAS, name=Ref(RefKind.PLAYER, p.pid),
                     role=Ref(RefKind.ROLE_WAS, p.role))
                for p in game.state.players.values()))), game=row)

    async def move_seat(self, row: GameRecord, pid: str, newcomer: Identity) -> Identity:
        """The host replaced a player: the seat goes to the newcomer's account; the old
        account is returned."""
        old = await Seat.get(game_id=row.id, pid=pid, active=True).prefetch_related("identity")
        old.active = False
        await old.save(update_fields=["active"])
        await Seat.create(game=row, identity=newcomer, pid=pid, position=old.position)
        forget_seats(row.id)
        return old.identity

    async def not_elsewhere(self, person: Identity) -> None:
        await self._not_elsewhere(person)


def default_ruleset() -> str:
    """The rule set a new game plays unless its host names one (and /rules explains)."""
    return "changelings" if "changelings" in available() else sorted(available())[0]
