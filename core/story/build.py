"""The story built from a game's setup and log: the engine replays the log command by
command, and the events each command caused (and the state between them) are read into a
`Story`. Pure: no storage, no clock; `archive.py` hands it the stored rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.engine import Game, GameSetup
from core.engine.commands import Act, Command, Whisper
from core.engine.events import Counted, Event, PhaseBegan, Removed, Voted
from core.engine.ids import PASS, ActionId
from core.engine.phase import Phase, PhaseKind
from core.engine.rules import Rules

from .model import Action, Fate, PlayerStory, Story, VoteRound, When
from .model import Whisper as Said


@dataclass(slots=True)
class _Tally:
    """A closed vote as it is read: who it removed is known only from the removals after it."""

    when: When
    ballots: tuple[tuple[str, str], ...]
    counts: tuple[tuple[str, int], ...]
    removed: list[str] = field(default_factory=list)


class _Reader:
    """Follows one replay: the open phase, the votes cast so far today, the actions that
    stand, the removals; the rule set's extension follows it too."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.extension = game.ruleset.story(game)
        self.phase = game.state.phase
        self.rounds: list[When] = []
        self.votes: dict[str, str] = {}
        self.tallies: list[_Tally] = []
        self.actions: dict[tuple[str, int, str, ActionId], Action] = {}
        self.whispers: list[Said] = []
        self.fates: dict[str, Fate] = {}
        self._enter(self.phase)

    def _enter(self, phase: Phase) -> None:
        self.phase = phase
        if phase.kind == PhaseKind.ENDED:
            return
        when = When(phase.kind, phase.number)
        if not self.rounds or self.rounds[-1] != when:
            self.rounds.append(when)
            self.votes = {}
            self.extension.began(self.game, phase)

    def before(self, command: Command) -> None:
        when = When.of(self.game.state.phase)
        if isinstance(command, Act) and command.action != PASS:
            key = (when.kind, when.number, command.by, command.action)
            self.actions.pop(key, None)  # re-insert: the order of the last choice
            self.actions[key] = Action(when, command.by, command.action, command.targets,
                                       command.role)
        elif isinstance(command, Whisper):
            self.whispers.append(Said(when, command.by, command.text.strip(), command.to))

    def event(self, event: Event) -> None:
        match event:
            case PhaseBegan(phase=phase):
                self._enter(phase)
            case Voted(voter=voter, target=target):
                self.votes.pop(voter, None)
                if target is not None:
                    self.votes[voter] = target
            case Counted(votes=votes):
                counts = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))
                self.tallies.append(_Tally(When.of(self.phase), tuple(self.votes.items()),
                                           tuple((pid, n) for pid, n in counts if n)))
            case Removed(player=pid, cause=cause):
                self.votes.pop(pid, None)
                self.fates[pid] = Fate(cause, When.of(self.phase))
                if cause in self.extension.vote_causes and self.tallies:
                    self.tallies[-1].removed.append(pid)
        self.extension.happened(self.game, event)


def build_story(ruleset: Rules[Game], setup: GameSetup, commands: Sequence[Command]) -> Story:
    """Replay the game and read its story. The game need not have ended (the tests read
    running ones too); the archive only ever shows finished games."""
    game = Game(ruleset, setup)
    reader = _Reader(game)
    for e in game.opening.events:
        reader.event(e)
    for command in commands:
        reader.before(command)
        outcome = game.apply(command)
        for e in outcome.events:
            reader.event(e)
    return _story(game, reader)


def story_of(game: Game) -> Story:
    """The story of a game already replayed (its setup and log are in it)."""
    return build_story(game.ruleset, game.setup, [command for command, _ in game.log])


def _story(game: Game, reader: _Reader) -> Story:
    state = game.state
    winners = tuple(state.winners or ())
    players = []
    for p in sorted(state.players.values(), key=lambda p: p.seat):
        side = game.ruleset.side_of(game, p)
        players.append(PlayerStory(p.pid, p.name, p.seat, p.role, side, side in winners,
                                   None if p.alive else reader.fates.get(p.pid)))
    votes = [VoteRound(t.when, t.ballots, t.counts, tuple(t.removed)) for t in reader.tallies]
    return Story(ruleset=state.ruleset, players=players, winners=winners,
                 rounds=reader.rounds, votes=votes, actions=list(reader.actions.values()),
                 whispers=reader.whispers, extras=reader.extension.extras())
