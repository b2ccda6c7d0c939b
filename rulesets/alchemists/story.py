"""The homunculus game's part of the story of a finished game (core/story): each day's links,
the Father's heirs, the Xing Alchemist's successor and the Stone's holders, followed through
the replay, with their words; and the voice of the summary's player lines (every player with
role, side and fate). Dark and grave, as the rest of the game."""

from __future__ import annotations

from core.engine.events import Event
from core.engine.game import Game
from core.engine.ids import PlayerId
from core.engine.messages import N_, n_
from core.engine.phase import Phase, PhaseKind
from core.engine.story import Bond, BondWords, Extra, Heading, Line, LineWords, StoryExtension

from .common import Cause, Succession, state_of
from .stone import StonePassed

STORY_TEXTS: dict[str, str] = {
    "survived": N_("{name} was {role} ({side}) and lived to see the end."),
    "left_day": N_("{name} was {role} ({side}): {cause} on day {number}."),
    "left_night": N_("{name} was {role} ({side}): {cause} on night {number}."),
}

# the story's headings in this game's words: the vote executes, the team chat is the homunculi's
STORY_HEADINGS: dict[Heading, str | tuple[str, str]] = {
    Heading.OUT_BY_VOTE: n_("Executed: {names}.", "Executed, {count} of them: {names}."),
    Heading.NOBODY_OUT: N_("Nobody was executed."),
    Heading.TEAM_CHAT: N_("The homunculi's whispers"),
}

LINKS = BondWords(
    line=N_("Day {number}: {first} and {second} were bound by a link."),
    heading=N_("Links of {when}: {pairs}."),
    mark="⛓")
# a line of succession: the dealt role first, then who took it over (a Father without heirs
# is listed with his role already; the Stone's one holder is news)
SUCCESSIONS = {
    "father": LineWords(
        line=n_("The Father: {names}.",
                "The Father's mantle passed on, heir after heir: {names}."),
        heading=n_("The Father: {names}.", "The Father and his heirs, in turn: {names}.")),
    "xing": LineWords(
        line=n_("The Xing Alchemist: {names}.", "The Xing Alchemist's duty passed on: {names}."),
        heading=n_("The Xing Alchemist: {names}.",
                   "The Xing Alchemist and his successors, in turn: {names}.")),
}
STONE = LineWords(
    line=n_("The Philosopher's Stone was held by {names}.",
            "The Philosopher's Stone passed from hand to hand: {names}."),
    heading=n_("The Philosopher's Stone was held by {names}.",
               "The Philosopher's Stone passed from hand to hand: {names}."),
    told_alone=True)
FATHER = "father"  # his line is told even without an heir


class AlchemistsStory(StoryExtension[Game]):
    """The links of each day as it began, the lines of succession from the dealt role on,
    the Stone's holders in turn (a holder who keeps it is named once)."""

    vote_causes = frozenset({Cause.EXECUTED})

    def __init__(self, game: Game) -> None:
        self.links: list[tuple[Phase, tuple[PlayerId, PlayerId]]] = []
        self.stone: list[PlayerId] = []
        self.dealt: dict[str, PlayerId] = {}  # role -> who was dealt it: his line begins there
        for p in sorted(game.state.players.values(), key=lambda p: p.seat):
            self.dealt.setdefault(p.role, p.pid)
        self.lines: dict[str, list[PlayerId]] = (
            {FATHER: [self.dealt[FATHER]]} if FATHER in self.dealt else {})

    def began(self, game: Game, phase: Phase) -> None:
        if phase.kind == PhaseKind.DAY:
            self.links += [(phase, (a, b)) for a, b in state_of(game).links]

    def happened(self, game: Game, event: Event) -> None:
        match event:
            case Succession(role=role, player=pid):
                first = [self.dealt[role]] if role in self.dealt else []
                self.lines.setdefault(role, first).append(pid)
            case StonePassed(holder=holder) if not self.stone or self.stone[-1] != holder:
                self.stone.append(holder)

    def extras(self) -> list[Extra]:
        told: list[Extra] = [Bond(a, b, LINKS, during) for during, (a, b) in self.links]
        told += [Line(tuple(holders), SUCCESSIONS[role]) for role, holders in self.lines.items()
                 if role in SUCCESSIONS]
        if self.stone:
            told.append(Line(tuple(self.stone), STONE))
        return told
