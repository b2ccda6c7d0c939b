"""Leaving the game's group chat is leaving the game [decision: docs/*-decisions.md,
"Leaving the group"]. The rules know only a player who goes (`/flee`): one who leaves the
game's chat while his game runs goes the same way, with the cause `left_chat`, once he has
stayed away for the grace time (`GameDefaults.leave_grace`: people misclick "leave", and
clients drop out) — coming back within it cancels it; one whom somebody else put out of the
chat (a kick, a ban) goes at once, cause `kicked`. A sign-up is dropped at once: joining
again is one press.

The grace time is a deadline of its own (kind `leave`, naming the seat), so it survives a
restart; a pause does not stop it (a paused game still lets a player go)."""

from __future__ import annotations

import math

from core.engine import Leave
from core.engine.causes import OutOfStory
from core.engine.ids import PlayerId
from core.storage.models import Deadline, GameRecord, Identity, Seat
from core.storage.states import CURRENT, DeadlineKind, DeadlineState, GameStatus, moved

from ..messages import button_commands as pressed
from ..messages import outbox, texts
from ..messages.payloads import post
from ..ports.howto import HowTo, howto
from ..ports.membership import MemberBack, MemberLeft, Membership
from ..ports.replies import Reply
from .context import ServiceContext
from .reach import family


class Departures:
    """Applies `Membership` news; called with the service's lock held, inside a
    transaction."""

    def __init__(self, service: ServiceContext) -> None:
        self.service = service

    async def apply(self, event: Membership) -> None:
        person = await Identity.get_or_none(platform=event.platform, ref=event.user.id)
        if person is None:
            return  # never wrote to the bot: he is in no game
        for chat in await family(event.platform, str(event.chat)):
            for row in await GameRecord.filter(chat_id=chat.id, status__in=CURRENT):
                seat = await Seat.filter(game_id=row.id, identity_id=person.id,
                                         active=True).first()
                if seat is None:
                    continue
                if isinstance(event, MemberBack):
                    await self._back(row, seat, person)
                elif row.status == GameStatus.LOBBY:
                    await self._drop_signup(row, person)
                else:
                    await self._left(row, seat, person, event)

    async def _drop_signup(self, row: GameRecord, person: Identity) -> None:
        """The sign-up goes at once (the lobby's own Leave: the list in the group shrinks,
        he is told privately)."""
        try:
            await self.service.lobby.press(pressed.Leave(), row, person)
        except Reply:  # the sign-up changed meanwhile: nothing to drop
            return

    async def _left(self, row: GameRecord, seat: Seat, person: Identity,
                    event: MemberLeft) -> None:
        grace = self.service.defaults.leave_grace
        if event.kicked or grace <= 0:
            cause = OutOfStory.KICKED if event.kicked else OutOfStory.LEFT_CHAT
            await self._out(row, seat, person, cause)
            return
        game = await self.service.games.load(row)
        if not game.state.players[PlayerId(seat.pid)].alive or await _waiting(seat):
            return  # out of the game already, or his grace time runs
        await Deadline.create(game=row, window=row.window, seat=seat,
                              due_at=self.service.clock.now() + grace, kind=DeadlineKind.LEAVE)
        await outbox.to_person(person, post(*texts.LEFT_CHAT_GRACE, how=howto(HowTo.REJOIN),
                                            count=max(1, math.ceil(grace / 60))), game=row)

    async def _back(self, row: GameRecord, seat: Seat, person: Identity) -> None:
        """Back within the grace time: he stays."""
        voided = await Deadline.filter(seat_id=seat.id, kind=DeadlineKind.LEAVE,
                                       state=DeadlineState.PENDING) \
            .update(state=moved(DeadlineState.PENDING, DeadlineState.VOID))
        if voided:
            await outbox.to_person(person, post(texts.BACK_IN_TIME), game=row)

    async def expired(self, row: GameRecord, deadline: Deadline) -> None:
        """The grace time is over and he is not back (a return voids the deadline): he
        leaves the game, unless his seat went to somebody else meanwhile."""
        seat = await Seat.get_or_none(id=deadline.seat_id) if deadline.seat_id else None
        if seat is None or not seat.active or row.status != GameStatus.RUNNING:
            return
        person = await Identity.get(id=seat.identity_id)
        await self._out(row, seat, person, OutOfStory.LEFT_CHAT, at=deadline.due_at)

    async def _out(self, row: GameRecord, seat: Seat, person: Identity, cause: OutOfStory,
                   at: float | None = None) -> None:
        """He leaves as `/flee` takes a player out; the rule set tells the group. Already
        out of the game (or a game that ended): nothing."""
        await Deadline.filter(seat_id=seat.id, kind=DeadlineKind.LEAVE,
                              state=DeadlineState.PENDING) \
            .update(state=moved(DeadlineState.PENDING, DeadlineState.VOID))
        leave = Leave(PlayerId(seat.pid), at=self.service.clock.now() if at is None else at,
                      cause=cause)
        game = await self.service.games.load(row)
        if game.check(leave) is None:
            await self.service.games.apply(row, leave, person)


async def _waiting(seat: Seat) -> bool:
    """Whether his grace time already runs (a second "left" for one departure)."""
    return await Deadline.filter(seat_id=seat.id, kind=DeadlineKind.LEAVE,
                                 state=DeadlineState.PENDING).exists()
