"""The seams a role module plugs into: its `Role` record and the hooks the shared mechanics
(the Stone, the vote, removals, the rule set's commands) call for whatever one role adds.

Each role module registers itself when `roles/__init__.py` imports it; registration order is
import order, and where several hooks answer one question they run in that order (which is part
of the rules, so `roles/__init__.py` keeps it fixed). The night's steps are the other seam:
`night.NIGHT`, with `@NIGHT.at(NightStep.X)`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from core.engine.ids import PlayerId, RoleId
from core.engine.ruleset import ActionSpec, Catalog, RoleSpec

if TYPE_CHECKING:
    from core.engine.game import Game
    from core.engine.state import Player, Submission


@dataclass(frozen=True, slots=True)
class Role:
    """One role's data: the engine's `RoleSpec`, its name and card (msgids), and its place in a
    setup (AL-SIZE): `required` exactly once, `optional` at most once, the `filler` role makes
    up the count. `canonical` is how many the canonical fifteen hold; `left_out` is the order in
    which an optional role is dropped from a default deal that still holds more roles than
    players once the roles sitting out at its size (deal.py) are out (0 = never).
    `team` names the team chat the role shares (rules §8). `about` is the card told to the
    group (/roles, /role): the role in the third person, where the card says "you".
    `role_was` names the role in running text ("Ann was the Ishvalan", `NC_("role was", …)`:
    German needs its article apart from the bare name a list shows; without it, the bare name).
    `catalog`: where a role from a package of its own has its texts translated."""

    spec: RoleSpec
    name: str
    card: str
    setup: Literal["required", "optional", "filler"]
    canonical: int = 1
    left_out: int = 0
    team: str | None = None
    about: str = ""
    role_was: str = ""
    catalog: Catalog | None = None

    @property
    def id(self) -> RoleId:
        return self.spec.id


@dataclass(frozen=True, slots=True)
class Team:
    """A team chat the rules give the roles that declare it: its room's title and topic."""

    key: str
    title: str
    about: str


@dataclass(frozen=True, slots=True)
class Reaction:
    """An owed reaction (asked in the day's reactions window): what the owner is told, and what
    his answer (or None, no answer) does."""

    prompt: str
    settle: Callable[[Game, PlayerId, PlayerId | None], None]


ROLES: dict[RoleId, Role] = {}
TEAMS: dict[str, Team] = {}
# action id -> its name on buttons (msgid)
ACTION_NAMES: dict[str, str] = {}

# What a role may send now, when it differs from its card (pride become father, leaderless
# homunculi): role id -> the player's own actions.
OWN_ACTIONS: dict[str, Callable[[Game, Player], Sequence[ActionSpec]]] = {}
# Actions owed to a player (even a dead one), offered before his own, by the stages in which
# they can be owed (pride's owed `take`: a day's vote and its reactions). Elsewhere, and so
# every night, none is asked: every action list of every player is built through them.
OWED_ACTIONS: dict[str, list[Callable[[Game, Player], Sequence[ActionSpec]]]] = {}
# Actions a player has gained during the game (greed's check, pride's standing `take`). What
# is gained is kept in the player's `counters`: these are asked only of a player with some
# (every action list of every player is built through them).
GAINED_ACTIONS: list[Callable[[Game, Player], Sequence[ActionSpec]]] = []
# Standing actions that may be sent at any time: not waited for at night, and put in front of
# the player only when this says so (action id -> whether to prompt it now).
STANDING: dict[str, Callable[[Game, Player], bool]] = {}
# action id -> raise `Refused` for what the action table cannot say
CHECKS: dict[str, Callable[[Game, Player, ActionSpec, tuple[PlayerId, ...]], None]] = {}
# action id -> react to an accepted submission; returns whether to confirm it ("Noted")
ACCEPTED: dict[str, Callable[[Game, Player, Submission], bool]] = {}
# owed reaction kind -> its prompt and settlement
REACTIONS: dict[str, Reaction] = {}

# The game's start, after every player has his card: who learns whom (rules §2).
AT_START: list[Callable[[Game], None]] = []
# A removal, after the Stone has moved on and before the finished Stone is checked.
ON_REMOVED: list[Callable[[Game, Player, str], None]] = []
# A day's executions, all of them done (crimson's explosion).
AFTER_EXECUTIONS: list[Callable[[Game, list[Player]], None]] = []
# A day has begun (after its announcement) / its vote has closed (before the reactions).
DAY_BEGUN: list[Callable[[Game], None]] = []
DAY_CLOSED: list[Callable[[Game], None]] = []
# Points taken off the Stone's backfire chance for this holder (crimson's 10 points).
BACKFIRE_DISCOUNTS: list[Callable[[Player], float]] = []


def register(entry: Role) -> Role:
    """Register a role (a role module's `ROLE = register(Role(...))`)."""
    ROLES[entry.id] = entry
    return entry


def register_team(entry: Team) -> Team:
    TEAMS[entry.key] = entry
    return entry
