"""Whether the bot can reach a game's group: a chat that moves to a new ref, a bot removed or
silenced, a forum topic closed, the right to mute that comes and goes.

A group the bot cannot write to pauses its game (nothing may be decided that nobody can
read), tells the host privately what happened and how to go on, and cancels the game when the
group stays unreachable for `GameDefaults.give_up_hours`. Messages that could not be posted
meanwhile wait and are posted, in order, once the bot can write there again.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, assert_never

from core.engine import Pause
from core.engine.messages import Param
from core.storage.models import (
    Chat,
    Deadline,
    GameRecord,
    Identity,
    Outbox,
    Seat,
)
from core.storage.states import CURRENT, WAITING, DeadlineKind, GameStatus, OutboxState, moved

from ..games.deadlines import void_all
from ..messages import outbox, texts
from ..messages.payloads import SilencePayload, post, to_json
from ..ports.contract import ChatChange, ChatEvent, ChatRef
from ..ports.howto import HowTo, howto
from ..ports.standing import LostReason
from ..rows import pending
from ..telling.muting import unmute_the_dead
from ..telling.teams import close_teams
from .context import ServiceContext
from .guidance import greeting

log = logging.getLogger(__name__)

# what the host is told when the bot loses a chat, by the reason, and how he brings it back
# on his platform (a topic is Telegram's alone: its texts say it themselves)
LOST_TEXTS: dict[str, tuple[tuple[str, str], HowTo | None]] = {
    "removed": (texts.LOST_REMOVED, HowTo.READD),
    "silenced": (texts.LOST_SILENCED, HowTo.SEND_RIGHTS),
    "topic_closed": (texts.LOST_TOPIC_CLOSED, None),
    "topic_deleted": (texts.LOST_TOPIC_DELETED, None),
}


async def family(platform: str, ref: str, whole: bool = True) -> list[Chat]:
    """The chat `ref` names and, for a whole chat, each of its topics."""
    chat = ChatRef.parse(ref)
    if chat.topic is not None or not whole:
        return await Chat.filter(platform=platform, ref=ref)
    return await Chat.filter(platform=platform, ref=ref) + await Chat.filter(
        platform=platform, ref__startswith=chat.topics_prefix())


def _moved_ref(ref: str, old: str, new: str) -> str:
    return new + ref[len(old):]


class Reach:
    """Applies `ChatEvent`s; called with the service's lock held, inside a transaction."""

    def __init__(self, service: ServiceContext) -> None:
        self.service = service

    async def apply(self, event: ChatEvent) -> None:
        ref = str(event.chat)  # as the chats are stored
        match event.kind:
            case ChatChange.MOVED:
                if event.new_ref:
                    await self.moved(event.platform, ref, str(event.new_ref))
            case ChatChange.LOST:
                await self.lost(event.platform, ref, event.reason or LostReason.REMOVED,
                                event.whole)
            case ChatChange.RESTORED:
                await self.restored(event.platform, ref, event.whole)
            case ChatChange.RIGHTS:
                if event.can_restrict:
                    await self.may_restrict(event.platform, ref)
            case ChatChange.ARRIVED:
                await self.arrived(event.platform, ref, event)
            case _:
                assert_never(event.kind)

    async def arrived(self, platform: str, ref: str, event: ChatEvent) -> None:
        """The bot was added to a group: it greets it, naming each right it misses and what
        that costs. Back in a group whose game it had lost, the host is told instead (see
        `restored`)."""
        chat, _ = await Chat.get_or_create(platform=platform, ref=ref,
                                           defaults={"locale": self.service.defaults.language})
        if await GameRecord.filter(chat_id=chat.id, status__in=CURRENT).exists():
            return
        await outbox.to_group(chat, greeting(event.lacks))

    # ------------------------------------------------------------------ a chat moves
    async def moved(self, platform: str, old: str, new: str) -> None:
        """The chat has a new ref: its settings, games and waiting messages go there, and the
        current ballot or sign-up is posted there anew (the old messages stay behind in the
        old chat, where nobody can press their buttons any more)."""
        if old == new:
            return
        for chat in await family(platform, old):
            target = _moved_ref(chat.ref, old, new)
            twin = await Chat.get_or_none(platform=platform, ref=target)
            if twin is not None:  # somebody wrote in the new chat before the move was known
                await GameRecord.filter(chat_id=twin.id).update(chat_id=chat.id)
                await twin.delete()
            chat.ref = target
            await chat.save(update_fields=["ref"])
            await pending.flush()  # what waits to be written is read too
            await Outbox.filter(platform=platform, chat_ref=_moved_ref(target, new, old),
                                status__in=WAITING).update(chat_ref=target)
            for row in await GameRecord.filter(chat_id=chat.id, status__in=CURRENT):
                await self._post_again(row, chat)
        log.info("%s chat %s moved to %s", platform, old, new)

    async def _post_again(self, row: GameRecord, chat: Chat) -> None:
        """The newest version of the game's live group message (the ballot of the open
        window, or the sign-up), as a new message in the chat's new place."""
        live = (f"ballot-{row.id}-{row.window}" if row.status == GameStatus.RUNNING
                else f"signup-{row.id}")
        version = await outbox.newest_version(row.id, live, statuses=[OutboxState.SENT, *WAITING])
        if version is not None and version.status == OutboxState.SENT:  # else a newer one waits: it
            await pending.add(Outbox(game_id=row.id, platform=chat.platform,  # posts anew
                                     chat_ref=chat.ref, private=False,  # there
                                     payload=to_json(outbox.stored(version))))

    # ------------------------------------------------------------------ the bot loses a chat
    async def lost(self, platform: str, ref: str, reason: LostReason,
                   whole: bool = True) -> None:
        """The bot cannot write in this chat: pause its games, tell their hosts, and set the
        time after which they are cancelled. A loss known already is not told again, but a
        game the host resumed meanwhile is paused again."""
        service = self.service
        now = service.clock.now()
        for chat in await family(platform, ref, whole):
            for row in await GameRecord.filter(chat_id=chat.id, status__in=CURRENT):
                if row.status == GameStatus.RUNNING and not (
                        await service.games.load(row)).state.paused:
                    await service.games.apply(
                        row, Pause(unreachable=True, at=now), None)
                if (row.settings or {}).get("lost"):
                    continue
                row.settings = {**row.settings, "lost": {"since": now, "reason": reason}}
                await row.save(update_fields=["settings"])
                await Deadline.create(game=row, window=row.window, kind=DeadlineKind.GIVE_UP,
                                      due_at=now + service.defaults.give_up_hours * 3600)
                text, topic = LOST_TEXTS.get(reason, LOST_TEXTS["removed"])
                # Any, as every text's parameters (`Text.params`): an object could be `asking`
                how: dict[str, Any] = {"how": howto(topic)} if topic else {}
                await self._tell_host(row, text, count=_hours(service.defaults.give_up_hours),
                                      **how)
                log.warning("game %s paused: the bot cannot write in %s %s (%s)", row.id,
                            platform, chat.ref, reason)
            # what waits for the chat (the pause's own notice included) is posted on return
            await pending.flush()  # what waits to be written is read too
            await Outbox.filter(platform=platform, chat_ref=chat.ref, private=False,
                                status=OutboxState.PENDING) \
                .update(status=moved(OutboxState.PENDING, OutboxState.LOST))

    async def restored(self, platform: str, ref: str, whole: bool = True) -> None:
        """The bot can write in the chat again: what waited is posted, the host may resume.
        The bot back in a group does not reopen a closed topic, nor a reopened topic bring
        the bot back: each ends only its own kind of loss."""
        for chat in await family(platform, ref, whole):
            still_lost = False
            for row in await GameRecord.filter(chat_id=chat.id, status__in=CURRENT):
                lost = (row.settings or {}).get("lost")
                if not lost:
                    continue
                if LostReason(lost.get("reason", LostReason.REMOVED)).whole != whole:
                    still_lost = True
                    continue
                row.settings = {k: v for k, v in row.settings.items() if k != "lost"}
                await row.save(update_fields=["settings"])
                await void_all(row.id, (DeadlineKind.GIVE_UP,))
                paused = row.status == GameStatus.RUNNING and (
                    await self.service.games.load(row)).state.paused
                await self._tell_host(row, texts.BACK_PAUSED if paused else texts.BACK,
                                      asking=paused)  # paused, he is to /resume
            if not still_lost:
                await pending.flush()  # what waits to be written is read too
                await Outbox.filter(platform=platform, chat_ref=chat.ref, status=OutboxState.LOST) \
                    .update(status=moved(OutboxState.LOST, OutboxState.PENDING), next_try_at=0.0)

    async def give_up(self, row: GameRecord) -> None:
        """The group stayed unreachable: the game is cancelled, its players are free."""
        service = self.service
        row.status = GameStatus.CANCELLED
        await row.save(update_fields=["status"])
        await void_all(row.id)
        if row.setup is not None:
            await unmute_the_dead(row, await service.games.load(row))
            await close_teams(row)
        service.games.forget(row.id)
        people = {seat.identity_id for seat in await Seat.filter(game_id=row.id, active=True)}
        people.add(row.host_id)
        title = chat_title(await row.chat)
        for person in await Identity.filter(id__in=people, anonymous=False):
            await outbox.to_person(person, post(texts.GAVE_UP, chat=title), game=row)
        log.warning("game %s cancelled: its group stayed unreachable", row.id)

    # ------------------------------------------------------------------ muting
    async def may_restrict(self, platform: str, ref: str) -> None:
        """The bot may mute members again: the mutes and unmutes it could not do are done
        now, in their order."""
        for chat in await family(platform, ref):
            await pending.flush()  # what waits to be written is read too
            await Outbox.filter(platform=platform, chat_ref=chat.ref, status=OutboxState.NORIGHTS) \
                .update(status=moved(OutboxState.NORIGHTS, OutboxState.PENDING), next_try_at=0.0)

    async def cannot_restrict(self, row: Outbox, never: bool = False) -> None:
        """A mute or unmute the bot had no right to do: the host is told (once per game for
        mutes, by name for each unmute, since that player stays silenced). A mute nobody may
        do there (`never`: a Matrix room's creator): the host is told by name, and the
        player himself, who is asked to stay silent (there is no unmute to wait for)."""
        if row.game_id is None or row.identity_id is None:
            return
        game = await GameRecord.get_or_none(id=row.game_id)
        order = outbox.stored(row)
        if game is None or not isinstance(order, SilencePayload):
            return
        if never:
            if order.muted:
                await self._tell_unmutable(game, await Identity.get(id=row.identity_id))
            return
        if order.muted:
            if (game.settings or {}).get("mute_told"):
                return
            game.settings = {**game.settings, "mute_told": True}
            await game.save(update_fields=["settings"])
            await self._tell_host(game, texts.CANNOT_MUTE, how=howto(HowTo.MUTE_RIGHTS))
        else:
            person = await Identity.get(id=row.identity_id)
            await self._tell_host(game, texts.CANNOT_UNMUTE, name=person.name,
                                  how=howto(HowTo.MUTE_RIGHTS))

    async def _tell_unmutable(self, game: GameRecord, person: Identity) -> None:
        how = howto(HowTo.MUTE_NEVER)
        if person.id != game.host_id:
            await self._tell_host(game, texts.CANNOT_MUTE_PLAYER, name=person.name, how=how)
        told = post(texts.CANNOT_MUTE_YOU, chat=chat_title(await game.chat), how=how)
        await outbox.to_person(person, replace(told, asks=person.id), game=game)

    async def _tell_host(self, row: GameRecord, text: str | tuple[str, str],
                         count: int | None = None, *, asking: bool = True,
                         **params: Param) -> None:
        """Tell the host about his game's group; `asking`: what he is told asks him to act
        (bring the bot back, resume, give it a right), so it rings (see `ports.Post`)."""
        host = await Identity.get(id=row.host_id)
        if host.anonymous:  # an anonymous admin has no private chat: nobody else to tell
            return
        key, plural = (text, None) if isinstance(text, str) else text
        told = post(key, plural, count, chat=chat_title(await row.chat), **params)
        await outbox.to_person(host, replace(told, asks=host.id) if asking else told,
                               game=row)


def chat_title(chat: Chat) -> str:
    return str((chat.settings or {}).get("title") or chat.ref)


def _hours(hours: float) -> int:
    return max(1, round(hours))
