"""The story built from a game's setup and log: the engine replays the log command by
command, and the events each command caused (and the state between them) are read into a
`Story`. Pure: no storage, no clock; `archive.py` hands it the stored rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.engine import Game, GameSetup
from core.engine.commands import Act, Command, Whisper
from core.engine.phase import Phase
from core.engine.rules import Rules

from .model import Action, Fate, PlayerStory, Story, VoteRound, When
from .model import Whisper as Said

# Removal causes that a day's vote decides (CH banishment, AL execution).
VOTE_CAUSES = frozenset({"banished", "executed"})


def _when(phase: Phase) -> When:
    return When(phase.kind, phase.number, phase.stage)


class _Reader:
    """Follows one replay: the open phase, the votes cast so far today, the actions that
    stand, the removals."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.phase = game.state.phase
        self.rounds: list[When] = []
        self.votes: dict[str, str] = {}
        self.rounds_of_votes: list[dict[str, Any]] = []
        self.actions: dict[tuple[str, int, str, str], Action] = {}
        self.whispers: list[Said] = []
        self.fates: dict[str, Fate] = {}
        self.lovers: list[tuple[str, str]] = []
        self.links: list[tuple[When, tuple[str, str]]] = []
        self.succession: dict[str, list[str]] = {}
        self.stone: list[str] = []
        # role -> who was dealt it: a line of succession begins with him
        self.dealt: dict[str, str] = {}
        for p in sorted(game.state.players.values(), key=lambda p: p.seat):
            self.dealt.setdefault(p.role, p.pid)
        if "father" in self.dealt:  # the father's line is told even without an heir
            self.succession["father"] = [self.dealt["father"]]
        self._enter(self.phase)

    def _enter(self, phase: Phase) -> None:
        self.phase = phase
        if phase.kind == "ended":
            return
        when = When(phase.kind, phase.number)
        if not self.rounds or self.rounds[-1] != when:
            self.rounds.append(when)
            self.votes = {}
            if phase.kind == "day":
                for pair in self._fact("links") or ():
                    self.links.append((when, (pair[0], pair[1])))

    def _fact(self, key: str) -> Any:
        try:
            return self.game.ruleset.fact(self.game, key)
        except KeyError:
            return None

    def before(self, command: Command) -> None:
        when = _when(self.game.state.phase)
        if isinstance(command, Act) and command.action != "pass":
            key = (when.kind, when.number, command.by, command.action)
            self.actions.pop(key, None)  # re-insert: the order of the last choice
            self.actions[key] = Action(when, command.by, command.action, command.targets,
                                       command.role)
        elif isinstance(command, Whisper):
            self.whispers.append(Said(when, command.by, command.text.strip(), command.to))

    def event(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "phase":
            self._enter(data["phase"])
        elif kind == "voted":
            self.votes.pop(data["voter"], None)
            if data["target"] is not None:
                self.votes[data["voter"]] = data["target"]
        elif kind == "counted":
            counts = sorted(data["votes"].items(), key=lambda kv: (-kv[1], kv[0]))
            self.rounds_of_votes.append({
                "when": _when(self.phase), "ballots": tuple(self.votes.items()),
                "counts": tuple((pid, n) for pid, n in counts if n), "removed": []})
        elif kind == "removed":
            pid = data["player"]
            self.votes.pop(pid, None)
            self.fates[pid] = Fate(data["cause"], _when(self.phase))
            if data["cause"] in VOTE_CAUSES and self.rounds_of_votes:
                self.rounds_of_votes[-1]["removed"].append(pid)
        elif kind == "lovers":
            self.lovers.append((data["pair"][0], data["pair"][1]))
        elif kind == "mayor":
            self.succession.setdefault("mayor", []).append(data["player"])
        elif kind == "succession":
            first = [self.dealt[data["role"]]] if data["role"] in self.dealt else []
            self.succession.setdefault(data["role"], first).append(data["player"])
        elif kind == "stone" and (not self.stone or self.stone[-1] != data["holder"]):
            self.stone.append(data["holder"])


def build_story(ruleset: Rules[Game], setup: GameSetup, commands: Sequence[Command]) -> Story:
    """Replay the game and read its story. The game need not have ended (the tests read
    running ones too); the archive only ever shows finished games."""
    game = Game(ruleset, setup)
    reader = _Reader(game)
    for e in game.opening.events:
        reader.event(e.kind, e.data)
    for command in commands:
        reader.before(command)
        outcome = game.apply(command)
        for e in outcome.events:
            reader.event(e.kind, e.data)
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
    votes = [VoteRound(r["when"], r["ballots"], r["counts"], tuple(r["removed"]))
             for r in reader.rounds_of_votes]
    return Story(ruleset=state.ruleset, players=players, winners=winners,
                 rounds=reader.rounds, votes=votes, actions=list(reader.actions.values()),
                 whispers=reader.whispers, lovers=reader.lovers, links=reader.links,
                 succession=reader.succession, stone_holders=reader.stone)
