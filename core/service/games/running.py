"""Running games: the engine games this process holds, starting one, applying one command in
a transaction (log, snapshot, outbox, then what a window change brings), and firing a due
deadline. The rooms it calls on have one job each: `stored` (rows, replay, locks),
`delivery` (messages to their readers), `deadlines`, `ballots` (the group's vote), `prompts`
(private keyboards), `teams` (team rooms) and `muting` (the dead go silent)."""

from __future__ import annotations

from collections.abc import Sequence

from core.engine import (
    HOST_COMMANDS,
    Close,
    Command,
    Game,
    GameSetup,
    Message,
    Outcome,
    Refused,
    Vote,
)
from core.engine.commands import MarkEarly
from core.engine.events import Closed, PhaseBegan, Removed
from core.engine.log_codec import command_to_json, encode, setup_to_json
from core.engine.messages import NOTED, Ref
from core.engine.registry import load_ruleset
from core.engine.voice import variants_of
from core.storage.models import Deadline, GameRecord, Identity, LogEntry
from core.story import story_of
from core.story.archive import new_archive_token, page_link
from core.story.summary import summary_texts
from core.story.texts import ARCHIVE_LINK
from core.story.texts import TITLE as STORY_TITLE

from ..messages import outbox
from ..messages.payloads import PicturePayload, PostPayload, StoredButton, part, post, text_part
from ..ports.clock import Clock
from ..ports.replies import Reply
from ..rows import pending
from ..rows.build import build_of
from ..rows.game_rows import chat_of, encode_snapshot, relock, replayed
from ..telling.audience import deliver_outcome
from ..telling.ballots import close_ballot, open_ballot, tally
from ..telling.muting import silence_removed, unmute_the_dead
from ..telling.prompts import close_keyboards, offer_keyboards
from ..telling.teams import close_teams, sync_teams
from .deadlines import Deadlines, void


class Games:
    """The engine games this process holds, kept in step with the database."""

    def __init__(self, clock: Clock, public_url: str = "") -> None:
        self.clock = clock
        self.public_url = public_url  # where a finished game's archive page will be
        self.deadlines = Deadlines(clock)
        self.cache: dict[int, tuple[int, Game]] = {}
        # each window's ballot buttons, by (game, window): made once, never changed
        self.ballots: dict[tuple[int, int], tuple[StoredButton, ...]] = {}

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
        self.ballots.clear()

    async def start(self, row: GameRecord, setup: GameSetup,
                    announce: PostPayload | None = None) -> Game:
        """Deal and begin; `announce` is told to the group first, before the opening and the
        first window's ballot (only once the setup is known to be valid)."""
        game = Game(load_ruleset(row.ruleset), setup)
        if announce is not None:
            await outbox.to_group(await chat_of(row), announce, game=row)
        row.setup = setup_to_json(setup)
        row.status = "running"
        row.snapshot = encode_snapshot(game)
        row.build = build_of(game.ruleset)
        row.window = 1
        await pending.save_game(row)
        self.cache[row.id] = (row.version, game)
        await deliver_outcome(row, game, game.opening, urgent=True)  # the role cards
        await sync_teams(row, game, [])
        await self.window_opened(row, game)
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
        # a closing that leaves the phase as it was (a removal made someone owe a reaction,
        # such as naming the next mayor) still opens a new window: its own deadline, prompts
        reopened = any(isinstance(e, Closed) for e in outcome.events) \
            and game.state.phase.kind != "ended"
        new_window = reopened or any(isinstance(e, PhaseBegan) for e in outcome.events)
        noting = variants_of(game.ruleset.voice, "NOTED", NOTED)
        noted = [m for m in outcome.messages
                 if m.text.key in noting and m.audience.kind == "player"]
        # the game's own question for a choice the new window's keyboard offers: its text
        asked = [m for m in outcome.messages if m.audience.kind == "player"
                 and m.text.key in game.ruleset.asking] if new_window else []
        rest = Outcome(outcome.events, [m for m in outcome.messages
                                        if m not in noted and m not in asked])
        if not refusal_as_reply:  # (a pressed button: its notice and keyboard say "noted")
            # "noted" before "this choice is closed" when the choice closed its window
            await deliver_outcome(row, game, Outcome([], noted))
        if new_window:  # the ballot closes before the group hears the result
            await close_ballot(row, game, outcome)
            self.ballots.pop((row.id, row.window), None)
            await close_keyboards(row)
        ended = game.state.phase.kind == "ended"
        await deliver_outcome(row, game, rest, urgent=new_window,  # a window's results
                              one_group_message=ended,
                              epilogue=summary_texts(story_of(game)) if ended else ())
        await silence_removed(row, [e.player for e in outcome.events
                                    if isinstance(e, Removed)], going_on=not ended)
        if game.state.phase.kind != "ended":  # after the game its rooms are only closed
            await sync_teams(row, game, teams_before)
        if new_window:
            row.window += 1
            await void(row)
            if game.state.phase.kind == "ended":
                row.status = "ended"
                row.archive_token = new_archive_token()  # the page's unguessable address
                await unmute_the_dead(row, game)
                await close_teams(row)
                await outbox.to_group(await chat_of(row), PicturePayload((part(
                    STORY_TITLE, ruleset=Ref("ruleset", row.ruleset)),)), game=row)
                if self.public_url:  # the whole story, once the game is over
                    await outbox.to_group(await chat_of(row), post(
                        ARCHIVE_LINK, link=page_link(self.public_url, row.archive_token)), game=row)
            else:
                await self.window_opened(row, game, asked)
        elif isinstance(command, HOST_COMMANDS):
            await self.deadlines.host_timing(row, command)
        elif isinstance(command, (Vote, MarkEarly)):
            await tally(row, game, self.ballots)
        await pending.save_game(row)  # the log entry, the outbox rows, the snapshot
        self.cache[row.id] = (row.version, game)
        return True

    async def fire(self, row: GameRecord, deadline: Deadline) -> bool:
        """A due deadline: close its window (once), if it is still the game's window; or
        remind those it waits for. Whether a window's deadline fired."""
        closes = deadline.state == "pending"
        deadline.state = "fired" if closes else "reminded"
        await deadline.save()
        if row.status == "running" and row.window == deadline.window:
            if closes:
                await self.apply(row, Close(at=deadline.due_at), None)
            else:
                await self.deadlines.remind(row, self.load)
        return closes

    async def window_opened(self, row: GameRecord, game: Game,
                            asked: Sequence[Message] = ()) -> None:
        """A new window: its deadline, then the group's ballot (if it has a vote) and each
        actor's keyboards (under the game's own question, where it `asked` one)."""
        await self.deadlines.window_opened(row, game)
        if game.ruleset.voting_open(game):
            self.ballots[row.id, row.window] = await open_ballot(row, game)
        await offer_keyboards(row, game, asked)
