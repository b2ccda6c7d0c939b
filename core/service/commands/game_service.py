"""The game service: turns platform-neutral updates into lobby actions and engine commands,
one at a time, each inside a database transaction, and answers bad input without changing
anything."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping, Sequence

from tortoise.exceptions import IntegrityError

from core.engine import MarkEarly, Say, Vote
from core.engine.ids import PlayerId
from core.storage.db import database_unavailable
from core.storage.models import (
    Chat,
    GameRecord,
    Identity,
    Outbox,
    ProcessedUpdate,
    Seat,
)
from core.storage.states import CURRENT, GameStatus
from core.storage.transaction import transaction

from ..delivery.rendering import PLAIN, personal_text
from ..games.deadline_times import GameDefaults
from ..games.firing import Firing
from ..games.running import Games
from ..messages import outbox, texts
from ..messages.payloads import PostPayload, text_part
from ..ports.clock import Clock
from ..ports.contract import ChatEvent, Incoming, Mention, Notice, RateLimits, TeamKey
from ..ports.howto import Wording
from ..ports.membership import Membership
from ..ports.refusals import VOTE_COUNTED
from ..ports.replies import Reply
from ..rows.game_rows import chat_game, seat_identities, seat_pid
from ..rows.pending import writing
from ..rows.repository import repository
from ..rows.unit_of_work import command_scope, current_work
from ..telling import situations
from ..telling.names import Roster
from .archive_setting import archive_chats_command
from .balance import BalanceRoom
from .buttons_pressed import ButtonPresses, button_game, taken_notice
from .confirm import Confirmations
from .departures import Departures
from .edits import edited, note_vote
from .guidance import wrong_place_in_group
from .hosting import HOST_WORDS, HostPowers
from .information import Information
from .lobby import Lobby
from .private import PrivateChats
from .reach import Reach
from .settings_menu import SettingsMenu
from .stats import stats_command
from .timers import Timers

log = logging.getLogger(__name__)


class GameService:
    """Everything between the adapters and the engine; one instance per process."""

    def __init__(self, clock: Clock, seed: int | None = None,
                 defaults: GameDefaults | None = None,
                 wordings: Mapping[str, Wording] | None = None,
                 limits: Mapping[str, RateLimits] | None = None) -> None:
        self.clock = clock
        # each platform's wording (its command prefix, "!" on Matrix, and its how-to texts),
        # for the answers the service renders at once (a pressed button's notice); the
        # outbox asks the adapter
        self.wordings = dict(wordings or {})
        self.defaults = defaults or GameDefaults()
        # each platform's rates: a window waits for its messages to go out (deadlines.py)
        self.games = Games(clock, self.defaults.public_url, limits)
        self.lobby = Lobby(self)
        self.information = Information(self)
        self.timers = Timers(self)
        self.private = PrivateChats(self)
        self.reach = Reach(self)
        self.confirmations = Confirmations(self)
        self.menu = SettingsMenu(self)
        self.buttons = ButtonPresses(self.games, clock, self.lobby, self.private,
                                     self.confirmations, self.menu)
        self.host_powers = HostPowers(self)
        self.lock = asyncio.Lock()
        self.balance = BalanceRoom(self, self.lock)  # /balance (core/balance's advisor)
        self.rng = random.Random(seed)
        self.departures = Departures(self)
        self.firing = Firing(self.games, clock, self.lock, self.reach.give_up,
                             self.departures.expired)
        self.commands_applied = 0
        self.last_command_at: float | None = None  # when an update was last applied

    # ------------------------------------------------------------------ entry points
    async def handle(self, incoming: Incoming) -> Notice | None:
        """Apply one incoming update exactly once. For a pressed button, return the short
        notice to show the presser (what happened, or why nothing did), in their language;
        other answers go to the outbox."""
        async with self.lock:
            try:
                with command_scope() as work:
                    async with transaction(), writing():
                        fresh = await repository().arrive(incoming, work)
                        if fresh is False:
                            return None  # a duplicate: already applied
                        if fresh is None:
                            try:
                                await ProcessedUpdate.create(platform=incoming.platform,
                                                             update_id=incoming.update_id)
                            except IntegrityError:
                                return None  # a duplicate: already applied
                        notice = await self._apply(incoming)
            except Exception as err:
                self.games.reset()
                if database_unavailable(err):
                    raise  # handled again once the database is back
                log.exception("%s update %s could not be handled; nothing changed",
                              incoming.platform, incoming.update_id)
                return await self._apologise(incoming)
            self.commands_applied += 1
            self.last_command_at = self.clock.now()
            return notice

    async def _apply(self, incoming: Incoming) -> Notice | None:
        """The update's effect, inside its transaction (see `handle`)."""
        person = await self._identity(incoming)
        try:
            answer = await self._dispatch(incoming, person)
            if isinstance(answer, Notice):  # a typed vote that counted
                return answer
            if answer is None and incoming.button:
                answer = Reply(await taken_notice(incoming.button, person.id))
            taken = True
        except Reply as refused:
            answer = refused
            taken = False
            if not incoming.button:  # said in the group if his private chat is closed
                await outbox.to_person(person, PostPayload(
                    (text_part(answer.text),), locale=await self._context_locale(incoming),
                    in_group=None if incoming.chat is None else str(incoming.chat)))
        if answer is None or not incoming.button:
            return None
        return Notice(await personal_text(person, await self._context_locale(incoming),
                                          answer, await button_game(incoming.button),
                                          self.wordings.get(incoming.platform, PLAIN)),
                      taken)

    async def _apologise(self, incoming: Incoming) -> Notice | None:
        """The update's handling raised (a bug): its transaction was rolled back, so nothing
        changed. The person hears so in his language instead of nothing at all."""
        try:
            with command_scope():
                async with transaction(), writing():
                    person = await self._identity(incoming)
                    locale = await self._context_locale(incoming)
                    sorry = Reply(texts.SORRY)
                    if incoming.button:
                        return Notice(await personal_text(
                            person, locale, sorry, None,
                            self.wordings.get(incoming.platform, PLAIN)), False)
                    await outbox.to_person(person, PostPayload((text_part(sorry.text),),
                                                               locale=locale))
        except Exception:
            log.exception("%s update %s: the apology failed too", incoming.platform,
                          incoming.update_id)
        return None

    async def chat_event(self, event: ChatEvent) -> None:
        """Something happened to a group chat itself (see `ChatEvent`); applied in order with
        the commands, in one transaction."""
        async with self.lock:
            try:
                with command_scope():
                    async with transaction(), writing():
                        await self.reach.apply(event)
            except Exception:
                self.games.reset()
                raise

    async def membership(self, event: Membership) -> None:
        """Someone left a group chat or came back (see `Membership`): applied once, in
        order with the commands, in one transaction. Nothing is kept of people the bot has
        never met (a big group's comings and goings)."""
        if not await Identity.exists(platform=event.platform, ref=event.user.id):
            return
        async with self.lock:
            try:
                with command_scope():
                    async with transaction(), writing():
                        try:
                            await ProcessedUpdate.create(platform=event.platform,
                                                         update_id=event.update_id)
                        except IntegrityError:
                            return  # a duplicate: already applied
                        await self.departures.apply(event)
            except Exception:
                self.games.reset()
                raise

    async def order_refused(self, outbox_id: int, never: bool = False) -> None:
        """The platform refused a mute or unmute for want of rights, or (`never`) because
        nobody may mute that person there (see `Reach`)."""
        with command_scope():
            async with self.lock, transaction(), writing():
                row = await Outbox.get_or_none(id=outbox_id)
                if row is not None:
                    await self.reach.cannot_restrict(row, never)

    async def fire_due_deadlines(self, limit: int | None = None) -> int:
        """Close every window whose deadline has passed (games/firing.py); how many. (Each
        tick also posts the balance estimates that finished meanwhile, balance.py.)"""
        await self.balance.post_finished()
        return await self.firing.fire_due(limit)

    async def _context_locale(self, incoming: Incoming) -> str:
        """The language of the chat the input came from (for a reply outside any game)."""
        if incoming.chat is None:
            # the newest game's chat (one that has just ended still speaks its language)
            seat = await Seat.filter(identity__platform=incoming.platform,
                                     identity__ref=incoming.user.id).order_by("-game_id").first()
            if seat is None:
                return "en"
            game = await GameRecord.get(id=seat.game_id).prefetch_related("chat")
            return str(game.chat.locale)
        chat = await Chat.get_or_none(platform=incoming.platform, ref=str(incoming.chat))
        return str(chat.locale) if chat is not None else "en"

    # ------------------------------------------------------------------ dispatch
    async def _identity(self, incoming: Incoming) -> Identity:
        work = current_work()
        person = None if work is None else work.take_identity(incoming.platform,
                                                               incoming.user.id)
        if person is None:
            person, _ = await Identity.get_or_create(
                platform=incoming.platform, ref=incoming.user.id,
                defaults={"name": incoming.user_name, "locale_hint": incoming.locale_hint,
                          "handle": incoming.handle, "anonymous": incoming.user.anonymous})
        changed = []
        if person.name != incoming.user_name and incoming.user_name:
            person.name = incoming.user_name
            changed.append("name")
        if incoming.locale_hint and person.locale_hint != incoming.locale_hint:
            person.locale_hint = incoming.locale_hint
            changed.append("locale_hint")
        if person.handle != incoming.handle and not incoming.user.anonymous:
            person.handle = incoming.handle
            changed.append("handle")
        if changed:
            await person.save(update_fields=changed)
        return person

    async def _chat(self, incoming: Incoming) -> Chat:
        """The group chat row (created on first contact), its title kept current: the host
        is told about the group by name when the bot loses it."""
        work = current_work()
        chat = None if work is None else work.take_chat(incoming.platform, str(incoming.chat))
        if chat is None:
            chat, _ = await Chat.get_or_create(platform=incoming.platform,
                                               ref=str(incoming.chat),
                                               defaults={"locale": self.defaults.language})
        title = incoming.chat_title
        if title and (chat.settings or {}).get("title") != title:
            chat.settings = {**(chat.settings or {}), "title": title}
            await chat.save(update_fields=["settings"])
        return chat

    async def _dispatch(self, incoming: Incoming, person: Identity) -> Reply | Notice | None:
        """Do what the update asks; a pressed button may have its own answer (else it was
        noted). Refusals are raised as `Reply`. A typed vote that counted is answered with
        an empty, taken `Notice`: platforms whose polls do not show it may mark the message
        (Matrix reacts ✅ to it)."""
        if incoming.situation == "edited":  # edits never count; a vote's is withdrawn
            await edited(incoming, person, self.games, self.clock.now())
            return None
        if incoming.situation is not None:
            await situations.tell(incoming, person,
                                  await self._chat(incoming) if incoming.chat else None)
            return None
        if incoming.button is not None:
            return await self.buttons.press(incoming.button, person,
                                            in_private=incoming.private)
        if incoming.team is not None:
            await self._team_talk(incoming.team, person)
            return None
        if incoming.private:
            await self.private.handle(incoming.command, incoming.text.strip(), person,
                                      incoming.mentioned)
            return None
        chat = await self._chat(incoming)
        if incoming.command is not None:
            counted = await self._group_command(incoming.command.word, incoming.command.args,
                                                chat, person, incoming.admin,
                                                incoming.mentioned, incoming.message)
            return VOTE_COUNTED if counted else None
        row, pid = await self._running_seat(chat, person)
        if row is not None and pid is not None:  # chatter is never answered; it counts
            # as activity, also while the game is paused
            await self.games.apply(row, Say(pid, at=self.clock.now()), None, locked=True)
        return None

    async def _team_talk(self, key: TeamKey, person: Identity) -> None:
        """Text in a team room: its members have read it there, so no relay; a living member
        has been active (the inactivity rules count it like a relayed whisper). Anything
        else (an ended game, someone the room should not hold) changes nothing."""
        row = await GameRecord.get_or_none(id=key.game)
        if row is None or row.status != GameStatus.RUNNING:
            return
        seat = await Seat.filter(game_id=row.id, identity_id=person.id, active=True).first()
        if seat is None:
            return
        pid = PlayerId(seat.pid)
        game = await self.games.load(row)
        chat = next((c for c in game.ruleset.team_chats(game) if c.key == key.chat), None)
        if chat is not None and pid in chat.members and game.state.players[pid].alive:
            await self.games.apply(row, Say(pid, at=self.clock.now()), None)

    async def current_game(self, chat: Chat, lock: bool = False) -> GameRecord | None:
        """The chat's game in its lobby or running; with `lock`, its row locked until the
        transaction ends (and so read fresh: another worker may have changed it). The row
        knows its chat (no query to ask it)."""
        return await chat_game(chat, CURRENT, lock)

    async def _running_seat(self, chat: Chat, person: Identity
                            ) -> tuple[GameRecord | None, PlayerId | None]:
        """The chat's running game, locked (see `current_game`), and the person's seat."""
        row = await chat_game(chat, (GameStatus.RUNNING,), lock=True)
        if row is None:
            return None, None
        return row, await seat_pid(row, person)

    # ------------------------------------------------------------------ the group
    async def _group_command(self, word: str, rest: str, chat: Chat, person: Identity,
                             admin: bool, mentioned: Sequence[Mention] = (),
                             message: str | None = None) -> bool:
        """A command in the group; `mentioned` names players, `message` is the platform's
        id of the message (a vote remembers it: an edit of it withdraws the vote). Whether
        it was a vote (or its withdrawal, or an early mark) that the game took."""
        if await self.lobby.handle(word, rest, chat, person, admin) or \
                await self.information.handle(word, rest, chat, person, admin) or \
                await self.timers.handle(word, rest, chat, person, admin) or \
                await self.balance.handle(word, rest, chat, person, admin):
            return False
        if word == "stats":  # the finished games' statistics (stats.py)
            await stats_command(rest, chat, person)
            return False
        if word == "config":  # the settings menu, in the private chat
            await self.menu.open(chat, person, admin)
            return False
        if word == "archivechats":  # whether the archive page shows the team chats
            await archive_chats_command(rest, chat, person, admin)
            return False
        if word == "flee":
            await self.confirmations.ask_flee(person, chat)
            return False
        if word in ("vote", "unvote", "early") or word in HOST_WORDS:
            # the game's row is locked here, once, for the whole command
            row = await self.current_game(chat, lock=True)
            if row is None:
                raise Reply(texts.NO_GAME)
            if row.status != GameStatus.RUNNING:
                raise Reply(texts.NOT_STARTED)
            if word in HOST_WORDS:
                await self.host_powers.handle(word, rest, row, person, admin, mentioned)
                return False
            pid = await seat_pid(row, person)
            if pid is None:
                raise Reply(texts.NOT_A_PLAYER)
            now = self.clock.now()
            window = row.window
            if word == "vote":
                target = (await self.roster(row, mentioned)).resolve(rest)
                taken = await self.games.apply(row, Vote(pid, target, at=now), person,
                                               locked=True)
                if taken:
                    await note_vote(row, pid, window, message)
                return taken
            if word == "unvote":
                return await self.games.apply(row, Vote(pid, None, at=now), person, locked=True)
            return await self.games.apply(row, MarkEarly(pid, at=now), person, locked=True)
        raise wrong_place_in_group(word) or Reply(texts.UNKNOWN_COMMAND, command=word)

    async def roster(self, row: GameRecord, mentioned: Sequence[Mention] = ()) -> Roster:
        """The game's players as a command names them; `mentioned`: the command's mentions,
        which name their accounts' seats."""
        seats = await seat_identities(row)
        return Roster({pid: (person.name, person.handle) for pid, person in seats.items()},
                      {pid: person.ref for pid, person in seats.items()}, mentioned)
