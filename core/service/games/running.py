"""Running games: the engine games this process holds, starting one, applying one command in
a transaction (the log and the snapshot, then the reactors of games/reactions.py: messages,
ballot, muting, team rooms, the next window or the end), and firing a due deadline."""

from __future__ import annotations

from collections.abc import Mapping

from core.engine import Close, Command, Game, GameSetup, Refused
from core.engine.log_codec import command_to_json, encode, setup_to_json
from core.engine.registry import load_ruleset
from core.storage.models import Deadline, GameRecord, Identity, LogEntry
from core.storage.states import DeadlineKind, DeadlineState, GameStatus, moved

from ..messages import outbox
from ..messages.payloads import PostPayload, text_part
from ..ports.clock import Clock
from ..ports.contract import RateLimits
from ..ports.replies import Reply
from ..rows import pending
from ..rows.build import build_of
from ..rows.game_rows import encode_snapshot, relock, replayed
from ..telling.audience import deliver_outcome
from ..telling.teams import sync_teams
from .after.window import open_window
from .applied import Applied, Held
from .deadlines import Deadlines
from .reactions import react


class Games:
    """The engine games this process holds, kept in step with the database."""

    def __init__(self, clock: Clock, public_url: str = "",
                 limits: Mapping[str, RateLimits] | None = None) -> None:
        self.clock = clock
        self.held = Held(Deadlines(clock, limits), public_url)
        self.cache: dict[int, tuple[int, Game]] = {}

    async def load(self, row: GameRecord) -> Game:
        cached = self.cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        game = await replayed(row)
        self.cache[row.id] = (row.version, game)
        return game

    def forget(self, game_id: int) -> None:
        self.cache.pop(game_id, None)

    def reset(self) -> None:
        """A transaction failed: what it may have left half-done here is forgotten."""
        self.cache.clear()
        self.held.ballots.clear()

    async def start(self, row: GameRecord, setup: GameSetup,
                    announce: PostPayload | None = None) -> Game:
        """Deal and begin; `announce` is told to the group first, in one message with the
        opening's group texts, before the first window's ballot (only once the setup is known
        to be valid); each player's opening texts (the role card, the team, ...) are one
        message too."""
        game = Game(load_ruleset(row.ruleset), setup)
        row.setup = setup_to_json(setup)
        row.status = GameStatus.RUNNING
        row.snapshot = encode_snapshot(game)
        row.build = build_of(game.ruleset)
        row.window = 1
        await pending.save_game(row)
        self.cache[row.id] = (row.version, game)
        await deliver_outcome(row, game, game.opening, urgent=True, together=True,
                              preface=announce.parts if announce is not None else ())
        await sync_teams(row, game, [])
        await open_window(row, game, self.held)
        return game

    async def apply(self, row: GameRecord, command: Command, sender: Identity | None,
                    refusal_as_reply: bool = False, locked: bool = False) -> bool:
        """Apply one command; a refusal changes nothing and is answered to the sender (or
        raised as a Reply, for a pressed button's short notice). `locked`: the caller read
        the row under its lock in this transaction (else it is locked and refreshed here)."""
        if not locked:
            await relock(row)
        game = await self.load(row)
        teams_before = game.ruleset.team_chats(game)
        try:
            outcome = game.apply(command)
        except Refused as refusal:
            if refusal_as_reply:
                raise Reply.saying(refusal.text) from None
            if sender is not None:
                await outbox.to_person(sender, PostPayload((text_part(refusal.text),)),
                                       game=row)
            return False
        self.forget(row.id)  # until the transaction has stored it
        row.version += 1
        await pending.add(LogEntry(game=row, seq=row.version, command=command_to_json(command),
                                   events=[[e.kind, encode(e.data)] for e in outcome.events]))
        row.snapshot = encode_snapshot(game)
        row.build = build_of(game.ruleset)
        await react(Applied.of(row, game, command, outcome, teams_before,
                               pressed=refusal_as_reply), self.held)
        await pending.save_game(row)  # the log entry, the outbox rows, the snapshot
        self.cache[row.id] = (row.version, game)
        return True

    async def fire(self, row: GameRecord, deadline: Deadline) -> bool:
        """A due deadline: close its window (once), if it is still the game's window; or
        remind those it waits for. Whether a window's deadline fired."""
        closes = deadline.kind == DeadlineKind.CLOSE
        deadline.state = moved(deadline.state, DeadlineState.FIRED)
        await deadline.save()
        if row.status == GameStatus.RUNNING and row.window == deadline.window:
            if closes:
                await self.apply(row, Close(at=deadline.due_at), None)
            else:
                await self.held.deadlines.remind(row, self.load)
        return closes
