"""What one applied command did, as data: the `Applied` record the reactors after a command
read (games/reactions.py), and `Held`, what this process keeps of its games between commands
that the reactors use (the deadline scheduler, each window's ballot buttons, the archive's
address)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.engine import Command, Game, Message, Outcome, TeamChat
from core.engine.events import Closed, PhaseBegan
from core.engine.messages import Purpose
from core.engine.phase import PhaseKind
from core.storage.models import GameRecord

from ..messages.payloads import StoredButton
from .deadlines import Deadlines


@dataclass(slots=True)
class Held:
    """What the process holds across commands besides the engine games themselves."""

    deadlines: Deadlines
    public_url: str = ""  # where a finished game's archive page will be
    # each window's ballot buttons, by (game, window): made once, never changed
    ballots: dict[tuple[int, int], tuple[StoredButton, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Applied:
    """A command the engine accepted, with its outcome sorted for its readers: the "noted"
    answers (told first), the game's own questions a new window's keyboard asks (told with
    the keyboard), and the rest."""

    row: GameRecord
    game: Game
    command: Command
    outcome: Outcome
    teams_before: list[TeamChat]  # the team chats as they were before the command
    pressed: bool  # a pressed button: its notice and keyboard say "noted"
    new_window: bool
    ended: bool
    noted: Sequence[Message]
    asked: Sequence[Message]
    rest: Outcome

    @classmethod
    def of(cls, row: GameRecord, game: Game, command: Command, outcome: Outcome,
           teams_before: list[TeamChat], pressed: bool) -> Applied:
        ended = game.state.phase.kind == PhaseKind.ENDED
        # a closing that leaves the phase as it was (a removal made someone owe a reaction,
        # such as naming the next mayor) still opens a new window: its own deadline, prompts
        reopened = any(isinstance(e, Closed) for e in outcome.events) and not ended
        new_window = reopened or any(isinstance(e, PhaseBegan) for e in outcome.events)
        noted = [m for m in outcome.messages if m.purpose is Purpose.NOTED]
        # the game's own question for a choice the new window's keyboard offers: its text
        asked = [m for m in outcome.messages
                 if m.purpose is Purpose.ASKING] if new_window else []
        rest = Outcome(outcome.events, [m for m in outcome.messages
                                        if m not in noted and m not in asked])
        return cls(row, game, command, outcome, teams_before, pressed, new_window, ended,
                   noted, asked, rest)
