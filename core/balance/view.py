"""What one simulated player knows, built only from what reached him, and what the whole table
knows. Agents decide from these and nothing else (the view-invariance test checks it).

`route` is the one place where the engine's output is sorted by audience, exactly as the
service delivers it: a `Group` message to the table, a `ToPlayer` message to that player, a
`ToTeam` message to the team's members, a `Learned` event to its observer. A rule set's
`Reader` turns the texts each player receives into typed facts of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from core.engine import Message, Outcome
from core.engine.events import Learned
from core.engine.ids import PlayerId, RoleId
from core.engine.messages import Group, Ref, RefKind, ToPlayer, ToTeam, WithRole


@dataclass(frozen=True, slots=True)
class Claim:
    """One entry of the claims board: `claimer` says he is `role` and that each named player
    is what he says (a researcher's results, true or faked)."""

    claimer: PlayerId
    role: RoleId
    results: tuple[tuple[PlayerId, RoleId], ...]
    day: int

    def says(self, pid: PlayerId) -> RoleId | None:
        return next((r for p, r in self.results if p == pid), None)


@dataclass(slots=True)
class Board:
    """The public claims board: the structured stand-in for the table's talk (AIWolf's
    COMINGOUT/DIVINED). A later claim by the same player replaces his earlier one."""

    claims: dict[PlayerId, Claim] = field(default_factory=dict)
    focus: PlayerId | None = None  # the town's announced bandwagon of the day

    def post(self, claim: Claim) -> None:
        self.claims[claim.claimer] = claim


@dataclass(slots=True)
class Public:
    """What every player at the table knows: the group's announcements (the roles of the
    removed where they are published, the special roles in play), the living, the day's
    votes as the live tally shows them, the mayor, and the claims board."""

    living: list[PlayerId] = field(default_factory=list)
    revealed: dict[PlayerId, RoleId] = field(default_factory=dict)
    in_play: frozenset[RoleId] = frozenset()
    hiding: int = 0  # how many enemies the start announced
    votes: Mapping[PlayerId, PlayerId] = field(default_factory=dict)
    tally: Mapping[PlayerId, int] = field(default_factory=dict)  # with letters, penalties
    mayor: PlayerId | None = None  # as a rule set's reader hears it announced
    links: set[tuple[PlayerId, PlayerId]] = field(default_factory=set)  # told to the group
    day: int = 1
    stage: str = ""
    board: Board = field(default_factory=Board)


NO_CARD = RoleId("")  # before the role card arrives


@dataclass(slots=True)
class View:
    """One player's knowledge: his card, what he learned (checks, his team), his private
    facts (a rule set's `notes`), and the table's public knowledge."""

    me: PlayerId
    public: Public
    card: RoleId = NO_CARD
    learned: dict[PlayerId, str] = field(default_factory=dict)
    fellows: set[PlayerId] = field(default_factory=set)  # the team he knows he is in
    partner: PlayerId | None = None  # his lover, if he was told of one
    notes: dict[str, PlayerId | None] = field(default_factory=dict)  # a rule set's private facts
    counts: dict[str, int] = field(default_factory=dict)  # and its private numbers


# A rule set's reader: what one message tells one player (his view), or the table (view None).
Reader = Callable[[View | None, Public, Message], None]


def player_of(param: object) -> PlayerId | None:
    """The player a message's parameter names (alone, or with his role), for a reader."""
    if isinstance(param, WithRole):
        param = param.who
    if isinstance(param, Ref) and param.kind == RefKind.PLAYER:
        return PlayerId(param.value)
    return None


def route(outcome: Outcome, views: Mapping[PlayerId, View], public: Public, read: Reader,
          members: Callable[[str], Iterable[PlayerId]]) -> None:
    """Deliver one command's outcome: each message to its audience, each `Learned` event to
    its observer (`members(team)`: who a team message reaches now)."""
    for message in outcome.messages:
        audience = message.audience
        kind = type(audience)
        if kind is Group:
            read(None, public, message)
        elif kind is ToPlayer:
            view = views.get(audience.pid)  # type: ignore[union-attr]
            if view is not None:
                read(view, public, message)
        elif kind is ToTeam:
            for pid in members(audience.team):  # type: ignore[union-attr]
                read(views[pid], public, message)
    for event in outcome.events:
        if type(event) is Learned:
            view = views.get(event.observer)
            if view is not None:
                view.learned[event.subject] = event.value
