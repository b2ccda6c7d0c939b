"""The host's powers over a running game: pause, resume, extend (within bounds), force,
modkill, announce, and replace (the seat goes to the account the host points at) — in the
group, or from the host's private chat with the bot (a host who plays and is out of the game
is muted in the group like every dead player, yet still hosts)."""

from __future__ import annotations

from collections.abc import Sequence

from core.engine import Announce, Extend, Force, Modkill, Pause, Replace, Resume
from core.spoken import span
from core.storage.models import GameRecord, Identity, Seat
from core.storage.states import GameStatus

from ..games.deadline_times import status_left
from ..games.deadlines import pending_close
from ..messages import outbox, texts
from ..messages.payloads import post
from ..ports.contract import Mention
from ..ports.replies import Reply
from ..rows.game_rows import locked_game
from ..telling.names import Roster
from ..telling.recap import brief_newcomer, newcomer_named
from ..telling.teams import sync_teams
from .context import ServiceContext
from .reach import chat_title

HOST_WORDS = {"pause", "resume", "extend", "force", "modkill", "replace", "announce"}
SIMPLE_POWERS = {"pause": Pause, "resume": Resume, "force": Force}  # a bare word each
MAX_EXTEND_MINUTES = 7 * 24 * 60


class HostPowers:
    def __init__(self, service: ServiceContext) -> None:
        self.service = service

    async def handle(self, word: str, rest: str, row: GameRecord, person: Identity,
                     admin: bool, mentioned: Sequence[Mention] = ()) -> None:
        if row.host_id != person.id and not admin:
            raise Reply(texts.NOT_HOST)
        now = self.service.clock.now()
        roster = await self.service.roster(row, mentioned)
        games = self.service.games
        if word == "modkill":
            await games.apply(row, Modkill(roster.resolve(rest), at=now), person)
            return
        if word == "replace":
            await self._replace(row, roster, rest, person, mentioned)
            return
        if word == "extend":
            try:
                minutes = int(rest)
            except ValueError:
                raise Reply(texts.NEED_MINUTES) from None
            await self._extend_within_bounds(row, minutes)
            await games.apply(row, Extend(minutes, at=now), person)
            await self._tell_time_left(row)
            return
        command = Announce(rest, at=now) if word == "announce" else SIMPLE_POWERS[word](at=now)
        await games.apply(row, command, person)

    async def from_private(self, word: str, rest: str, person: Identity,
                           mentioned: Sequence[Mention] = ()) -> None:
        """A host power written to the bot privately: the same command as in the group, for
        the one running game the person hosts. Several are possible (a host who left his own
        sign-up may open another game): which one he means, only its group can tell."""
        hosted = await GameRecord.filter(host_id=person.id,
                                         status=GameStatus.RUNNING).order_by("id")
        if len(hosted) > 1:
            raise Reply(texts.HOSTING_SEVERAL)
        if not hosted:
            lobby = await GameRecord.filter(host_id=person.id, status=GameStatus.LOBBY).exists()
            raise Reply(texts.NOT_STARTED if lobby else texts.NOT_HOST)
        row = await locked_game(hosted[0].id)  # as in the group: locked for the command
        if word == "resume" and (row.settings or {}).get("lost"):
            # nothing may be decided that nobody can read: the group comes back first
            raise Reply(texts.RESUME_UNREACHABLE, chat=chat_title(await row.chat))
        await self.handle(word, rest, row, person, False, mentioned)

    async def _replace(self, row: GameRecord, roster: Roster, rest: str, host: Identity,
                       mentioned: Sequence[Mention]) -> None:
        """/replace OLD NEW: the seat goes to the account the host points at — by replying
        to the newcomer's message, by mentioning him, or by his @username or (Matrix) user
        id — who is then told everything the seat knows and asked what is open. A mention
        of OLD names the seat, never the newcomer."""
        pids, named = roster.split(rest.split(), 1) if rest.strip() else ([], "")
        if not pids:
            raise Reply(texts.NAME_NEEDED)
        newcomer = await newcomer_named(host.platform, named, [
            m for m in mentioned if m.user is not None
            and (m.span is None or " ".join(m.span.split()) in " ".join(named.split()))])
        if await Seat.filter(game_id=row.id, identity_id=newcomer.id, active=True).exists():
            raise Reply(texts.ALREADY_PLAYS, name=newcomer.name)
        await self.service.lobby.not_elsewhere(newcomer)
        command = Replace(pids[0], newcomer.name, at=self.service.clock.now())
        game = await self.service.games.load(row)
        refusal = game.check(command)
        if refusal is not None:
            raise Reply.saying(refusal.text)
        old = await self.service.lobby.move_seat(row, pids[0], newcomer)
        await self.service.games.apply(row, command, host)
        await brief_newcomer(row, old, newcomer)
        game = await self.service.games.load(row)  # the newcomer takes the seat's team rooms
        await sync_teams(row, game, game.ruleset.team_chats(game), moved=pids[0])

    async def _tell_time_left(self, row: GameRecord) -> None:
        """After /extend the group reads the new time left (at the forum pace: its clock)."""
        row = await GameRecord.get(id=row.id).prefetch_related("chat")
        pending = await pending_close(row.id)
        await outbox.to_group(row.chat, post(texts.DEADLINE_NOW, left=status_left(
            row, pending, self.service.clock.now())), game=row)

    async def _extend_within_bounds(self, row: GameRecord, minutes: int) -> None:
        """A deadline moves back at most to now, and on by at most a week."""
        pending = await pending_close(row.id)
        left = (pending.due_at - self.service.clock.now() if pending is not None
                else row.paused_left or 0.0)
        shortest = int(max(0.0, left) // 60)
        if not -shortest <= minutes <= MAX_EXTEND_MINUTES:
            longest = span(MAX_EXTEND_MINUTES * 60)
            if shortest == 0:
                raise Reply(texts.EXTEND_ONLY, high=MAX_EXTEND_MINUTES, longest=longest)
            raise Reply(*texts.EXTEND_RANGE, count=shortest, high=MAX_EXTEND_MINUTES,
                        longest=longest)
