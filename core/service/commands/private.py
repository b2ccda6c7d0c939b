"""The private chat with the bot: night actions (`/ACTION NAME`), `/pass`, what is relayed
to a team, the player's own `/status`, `/myrole`, `/flee` and `/language`, the deep links
from group buttons, and the host's `/endgame` for a game whose group the bot cannot reach."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import spoken
from core.engine import Act, Whisper
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import Ref, RefKind
from core.storage.models import GameRecord, Identity, Seat
from core.storage.states import CURRENT, GameStatus

from ..games.deadline_times import status_left
from ..games.deadlines import pending_close
from ..messages import outbox, texts
from ..messages.payloads import PostPayload, part, post
from ..ports.contract import Command, Mention
from ..ports.howto import HowTo, howto
from ..ports.replies import Reply
from ..telling.names import Roster
from ..telling.recap import recap
from .context import ServiceContext
from .guidance import welcome, wrong_place_in_private
from .hosting import HOST_WORDS
from .typed_values import language_choices, read_language


class PrivateChats:
    def __init__(self, service: ServiceContext) -> None:
        self.service = service

    async def handle(self, command: Command | None, text: str, person: Identity,
                     mentioned: Sequence[Mention] = ()) -> None:
        """A `command`, or a `text` for a teammate; `mentioned`: the people the text
        mentions, who name their seats in an action."""
        word, rest = (command.word, command.args) if command is not None else ("", text)
        await outbox.reopen(person)
        if word in ("help", "start") and not rest:
            await outbox.to_person(person, await self.help_for(person))
            return
        if word in HOST_WORDS:  # a host out of the game is muted in the group, not here
            await self.service.host_powers.from_private(word, rest.strip(), person, mentioned)
            return
        if word == "start":  # a deep link from a group button: press it here
            await self.service.buttons.press(rest.strip(), person, in_private=True)
            return
        if word == "language":
            await self._personal_language(rest, person)
            return
        if word == "endgame":  # the group is out of reach: the host ends its game from here
            await self.service.lobby.end_unreachable(person)
            return
        if word == "flee":
            await self.service.confirmations.ask_flee(person)
            return
        if word == "config":  # the settings menu of the game he hosts
            await self.service.menu.open_private(person)
            return
        if word == "timer":  # a window's timer of the game he hosts
            await self.service.timers.from_private(rest, person)
            return
        misplaced = wrong_place_in_private(word)
        if misplaced is not None:
            raise misplaced
        seat = await Seat.filter(identity_id=person.id, active=True,
                                 game__status=GameStatus.RUNNING).order_by("-id").first()
        if seat is None:
            raise Reply(texts.NOT_PLAYING)
        row = await GameRecord.get(id=seat.game_id)
        pid = PlayerId(seat.pid)
        now = self.service.clock.now()
        if not word:  # "@Name text" is meant for that teammate alone (father → homunculus)
            to, said = await self._addressee(row, text, mentioned)
            await self.service.games.apply(row, Whisper(pid, said, to=to, at=now),
                                           person)
            return
        game = await self.service.games.load(row)
        if word == "status":  # where the game is, what is open for him, what he was told
            await self._status(row, game, pid, person)
            return
        if word == "myrole":
            await recap(row, person, everything=True)
            return
        if word not in game.ruleset.action_ids():
            raise Reply(texts.UNKNOWN_COMMAND, command=word)
        await self.service.games.apply(row, self._act(game, pid, ActionId(word), rest,
                                              await self.service.roster(row, mentioned),
                                              now), person)

    @staticmethod
    async def help_for(person: Identity) -> PostPayload:
        """The private chat's help: the player's; for the host of a game, the host powers he
        may use here as well (only those, if he does not play); for somebody in no game,
        the welcome first (what the bot is, how to host)."""
        player_help = part(texts.HELP_PRIVATE, how=howto(HowTo.ACT_PRIVATELY))
        plays = await Seat.filter(identity_id=person.id, active=True,
                                  game__status__in=CURRENT).exists()
        if not await GameRecord.filter(host_id=person.id, status__in=CURRENT).exists():
            return PostPayload((player_help,)) if plays else welcome(player_help)
        return PostPayload((*((player_help,) if plays else ()),
                            part(texts.HELP_PRIVATE_HOST)))

    async def _addressee(self, row: GameRecord, text: str,
                         mentioned: Sequence[Mention]) -> tuple[PlayerId | None, str]:
        """(teammate's pid, message) for "@Name message"; (None, text) for anything else."""
        if not text.startswith("@"):
            return None, text
        roster = await self.service.roster(row, mentioned)
        try:
            pids, said = roster.split(text[1:].split(), 1)
        except Reply:
            return None, text
        return (pids[0], said) if said else (None, text)

    async def _status(self, row: GameRecord, game: Any, pid: PlayerId, person: Identity) -> None:
        deadline = await pending_close(row.id)
        left = status_left(row, deadline, self.service.clock.now())
        player = game.state.players[pid]
        open_now = [s.id for s in game.ruleset.prompted(game, player)] if player.alive else []
        voting = player.alive and game.ruleset.voting_open(game) and \
            pid not in game.state.votes
        await outbox.to_person(person, post(
            texts.STATUS, ruleset=Ref(RefKind.RULESET, row.ruleset),
            phase=spoken.phase(game.state.phase), left=left), game=row)
        if open_now:
            await outbox.to_person(person, post(
                texts.OPEN_FOR_YOU, actions=tuple(Ref(RefKind.ACTION, a) for a in open_now)),
                game=row)
        elif voting:
            await outbox.to_person(person, post(texts.VOTE_OPEN_FOR_YOU), game=row)
        else:
            await outbox.to_person(person, post(texts.NOTHING_OPEN), game=row)
        await recap(row, person)

    def _act(self, game: Any, pid: PlayerId, action: ActionId, rest: str, roster: Roster,
             now: float) -> Act:
        player = game.state.players[pid]
        spec = next((s for s in game.ruleset.abilities(game, player) if s.id == action), None)
        count = spec.targets if spec is not None else (1 if rest else 0)
        if spec is not None and spec.takes_role:
            role_id = self._role_named(game, rest)
            return Act(pid, action, (), None, role_id, at=now)
        words = rest.split()
        targets, text = roster.split(words, count) if count else ([], rest)
        return Act(pid, action, tuple(targets), text or None, None, at=now)

    def _role_named(self, game: Any, text: str) -> RoleId:
        wanted = text.strip().casefold().replace(" ", "_")
        for role_id in game.ruleset.roles:
            if role_id == wanted:
                return RoleId(role_id)
        raise Reply(texts.UNKNOWN_ROLE, name=text.strip())

    async def _personal_language(self, rest: str, person: Identity) -> None:
        wanted = read_language(rest)
        if wanted is None:
            raise Reply(texts.UNKNOWN_LANGUAGE, names=language_choices())
        person.locale = wanted
        await person.save(update_fields=["locale"])
        await outbox.to_person(person, post(texts.LANGUAGE_SET))
