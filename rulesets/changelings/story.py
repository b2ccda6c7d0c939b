"""The pony game's part of the story of a finished game (core/story): the lovers and the
mayors, followed through the replay, with their words; and the voice of the summary's player
lines (every pony with role, side and fate). Playful, as the rest of the game."""

from __future__ import annotations

from core.engine.events import Event
from core.engine.game import Game
from core.engine.ids import PlayerId
from core.engine.messages import N_, n_
from core.engine.story import Bond, BondWords, Extra, Heading, Line, LineWords, StoryExtension

from .standing import Lovers, Mayor
from .vocabulary import Cause

STORY_TEXTS: dict[str, str] = {
    "survived": N_("{name} was {role} ({side}) and trotted safely to the very end."),
    "left_day": N_("{name} was {role} ({side}): {cause} on day {number}."),
    "left_night": N_("{name} was {role} ({side}): {cause} on night {number}."),
}

LOVERS = BondWords(
    line=N_("{first} and {second} were lovers, heart to heart and hoof in hoof."),
    heading=n_("The lovers: {pairs}.", "{count:W} pairs of lovers: {pairs}."),
    mark="♥")
# the mayor is elected, which is news even if nopony took the sash after him
MAYORS = LineWords(
    line=n_("Only {names} wore the mayor's sash, all game long.",
            "The mayor's sash went from pony to pony: {names}."),
    heading=n_("The mayor: {names}.", "The mayors, in turn: {names}."),
    told_alone=True)
# the story's headings in the pony game's words: a pony is banished, the team chat is the hive's
STORY_HEADINGS: dict[Heading, str | tuple[str, str]] = {
    Heading.OUT_BY_VOTE: n_("Banished from Ponyville: {names}.",
                            "Banished from Ponyville, {count} of them: {names}."),
    Heading.NOBODY_OUT: N_("Nopony was banished."),
    Heading.NO_VOTES: N_("Nopony voted."),
    Heading.TEAM_CHAT: N_("Whispers in the hive"),
}
# the archive's and the picture's title of a vote in a stage other than the day's vote
VOTE_TITLES = {"election": N_("The mayor's election, {when}")}


class ChangelingsStory(StoryExtension[Game]):
    """The lovers as they fell in love, the mayors in the order they took office."""

    vote_causes = frozenset({Cause.BANISHED})

    def __init__(self) -> None:
        self.lovers: list[tuple[PlayerId, PlayerId]] = []
        self.mayors: list[PlayerId] = []

    def happened(self, game: Game, event: Event) -> None:
        match event:
            case Lovers(pair=(first, second)):
                self.lovers.append((first, second))
            case Mayor(player=pid):
                self.mayors.append(pid)

    def extras(self) -> list[Extra]:
        told: list[Extra] = [Bond(first, second, LOVERS) for first, second in self.lovers]
        if self.mayors:
            told.append(Line(tuple(self.mayors), MAYORS))
        return told
