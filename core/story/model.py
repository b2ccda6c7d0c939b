"""The story of a finished game as plain data: who played what, who left when and how, each
day's votes and each night's actions, and what the rule set adds (its bonds and lines, see
core/engine/story.py). Built once from the replayed log (`build.py`) and read by the summary,
the picture and the archive page, so that they never disagree."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.engine.ids import ActionId
from core.engine.phase import Phase, PhaseKind
from core.engine.story import Bond, Extra


@dataclass(frozen=True, slots=True)
class When:
    """A moment of the game: day or night, its number, and the open window's stage."""

    kind: PhaseKind  # day or night
    number: int
    stage: str = ""

    @staticmethod
    def of(phase: Phase) -> When:
        return When(phase.kind, phase.number, phase.stage)

    def same_round(self, other: When) -> bool:
        """Whether both are in the same day or night, whichever its stage."""
        return (self.kind, self.number) == (other.kind, other.number)


@dataclass(frozen=True, slots=True)
class Fate:
    """How a player left the game (`cause` is the rule set's removal cause) and when."""

    cause: str
    when: When


@dataclass(slots=True)
class PlayerStory:
    pid: str
    name: str
    seat: int
    role: str
    side: str
    won: bool
    fate: Fate | None  # None: survived to the end


@dataclass(frozen=True, slots=True)
class VoteRound:
    """One closed vote: each voter's last choice, the deciding count and who it removed."""

    when: When
    ballots: tuple[tuple[str, str], ...]  # (voter, target), in the order of last change
    counts: tuple[tuple[str, int], ...]  # the deciding count per player, highest first
    removed: tuple[str, ...]  # voted out (none on a tie or an election)


@dataclass(frozen=True, slots=True)
class Action:
    """A choice that stood when its window closed (a later submission replaces an earlier)."""

    when: When
    actor: str
    action: ActionId
    targets: tuple[str, ...] = ()
    role: str | None = None


@dataclass(frozen=True, slots=True)
class Whisper:
    """A team-chat message; shown on the archive page only if the host allowed it."""

    when: When
    sender: str
    text: str
    to: str | None = None


@dataclass(slots=True)
class Story:
    ruleset: str
    players: list[PlayerStory]
    winners: tuple[str, ...]  # the winning sides (empty: a draw)
    rounds: list[When]  # every day and night that began, in order
    votes: list[VoteRound] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    whispers: list[Whisper] = field(default_factory=list)
    extras: list[Extra] = field(default_factory=list)  # the rule set's, in telling order

    def player(self, pid: str) -> PlayerStory:
        return next(p for p in self.players if p.pid == pid)

    def left_in(self, when: When) -> list[PlayerStory]:
        """Who left during that day or night (any stage of it)."""
        return [p for p in self.players
                if p.fate is not None and p.fate.when.same_round(when)]

    def votes_of(self, when: When) -> list[VoteRound]:
        return [v for v in self.votes if v.when.same_round(when)]

    def actions_of(self, when: When) -> list[Action]:
        return [a for a in self.actions if a.when.same_round(when)]

    def whispers_of(self, when: When) -> list[Whisper]:
        return [w for w in self.whispers if w.when.same_round(when)]

    def bonds_of(self, when: When) -> list[Bond]:
        """The bonds that held during that day or night only (a day's links)."""
        return [b for b in self.extras if isinstance(b, Bond) and b.during is not None
                and when.same_round(When.of(b.during))]
