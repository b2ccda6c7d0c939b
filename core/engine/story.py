"""What a rule set adds to the story of a finished game (core/story). The core's story knows
only what every game has: players, fates, days and nights, votes and night actions. A rule
set that binds players together (lovers, a day's links) or passes something from hand to hand
(an office, a role's line of succession, an object) follows the same replay with its own
`StoryExtension` and hands back its extras: typed records that carry their own words, msgids
of the rule set's catalog, so the summary, the picture and the archive page tell them without
knowing what they are."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from .events import Event
from .ids import PlayerId
from .phase import Phase

# The game the extension follows: the engine's `Game` (generic here, so that the rule set
# contract can name the extension without this module importing the game)
G = TypeVar("G", contravariant=True)


class Heading(StrEnum):
    """A text of the story (the picture, the archive page) that a rule set may say in its own
    words (`Ruleset.story_headings`: a heading -> its msgid, a singular and plural pair for
    `OUT_BY_VOTE`, with the core text's placeholders): a pony is banished, an alchemist
    executed, and the team chat is the hive's."""

    OUT_BY_VOTE = "out_by_vote"  # {names} ({count}): who left by a day's vote
    NOBODY_OUT = "nobody_out"  # a day's vote removed nobody
    NO_VOTES = "no_votes"  # nobody voted
    TEAM_CHAT = "team_chat"  # the heading of a day's team-chat lines


@dataclass(frozen=True, slots=True)
class BondWords:
    """How one kind of bond is told. `line`: the summary's line for one bond ({first},
    {second}, and {number} for a day's bond). `heading`: the archive page's line, for a
    game-long bond one counted line for all of them ({pairs}, {count}: a singular and plural
    msgid), for a day's bond one in that day's section ({when}, {pairs}). `mark` stands
    between the two names of a pair there."""

    line: str
    heading: str | tuple[str, str]
    mark: str


@dataclass(frozen=True, slots=True)
class Bond:
    """Two players the rules bound together, for the whole game (`during` None) or for the
    day or night `during` began."""

    first: PlayerId
    second: PlayerId
    words: BondWords
    during: Phase | None = None


@dataclass(frozen=True, slots=True)
class LineWords:
    """How one kind of line is told, each a singular and plural msgid counted by the names
    ({names}): `line` in the summary, `heading` on the archive page. A line of one name
    says nothing the players' own lines do not, unless `told_alone` (an elected mayor is
    news; a Father without heirs is listed with his role already)."""

    line: tuple[str, str]
    heading: tuple[str, str]
    told_alone: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """Players in turn: an office's holders, a role's line of succession, an object's holders."""

    holders: tuple[PlayerId, ...]
    words: LineWords


Extra = Bond | Line


class StoryExtension(Generic[G]):
    """Follows one replay beside the core's reader: the rule set's `story(game)` makes one
    when the game has been dealt; `began` is called as each day or night begins (the state
    is the one after the command that began it), `happened` for every event in order, and
    `extras` once at the end. The base adds nothing."""

    # Removal causes that a day's vote decides: whoever left by one was voted out.
    vote_causes: frozenset[str] = frozenset()

    def began(self, game: G, phase: Phase) -> None:
        """A day or night began (`phase` is its first window)."""

    def happened(self, game: G, event: Event) -> None:
        """An event of the replay, in order."""

    def extras(self) -> list[Extra]:
        """The bonds and lines of the whole game, in the order the summary tells them."""
        return []
