"""The seams a role module plugs into: its role's data, the checks of its actions, and what it
does when the shared mechanics (the vote, removals, the abduction, the end check) reach a
player of its role.

The night's steps are the other seam (`night.NIGHT`, walked step by step). Every table here is
filled once, when `roles/` is imported, and never changes during a game: game state lives in
`state.py` and on the players, never in these tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, Catalog, RoleSpec
from core.engine.state import Owed, Player, Submission

from .vocabulary import CHANGELINGS, Stage

F = TypeVar("F", bound=Callable[..., object])


class ByKey(Generic[F]):
    """One handler per key (a role id or an action id), attached with `@TABLE.at(key)` and
    read from `TABLE.handlers`.

    The handlers are a plain dict beside the table, not the table itself as a subclass of
    dict: Python 3.11 looks a method up on such a subclass by its generic path and builds a
    bound method at every `.get`, and the checks and the stage's extra abilities are asked
    hundreds of times a game (valgrind: some two bound methods made and freed per command)."""

    __slots__ = ("handlers", "what")

    def __init__(self, what: str) -> None:
        self.what = what
        self.handlers: dict[str, F] = {}

    def at(self, key: str) -> Callable[[F], F]:
        def attach(handler: F) -> F:
            if key in self.handlers:
                raise ValueError(f"a second {self.what} handler for {key!r}")
            self.handlers[key] = handler
            return handler

        return attach


class InOrder(list[F]):
    """Handlers that all run, in the order they were attached (`@TABLE.add`)."""

    def add(self, handler: F) -> F:
        self.append(handler)
        return handler


# --------------------------------------------------------------------------- the roles' data
ROLES: dict[RoleId, RoleSpec] = {}  # in the order the role modules are imported
ROLE_NAMES: dict[str, str] = {}
ROLE_CARDS: dict[str, str] = {}
# what the group reads of a role (/roles, /role NAME): the third person, where the card that a
# player is dealt says "you"
ROLE_ABOUT: dict[str, str] = {}
# a role as running text names it ("Ann was the Researcher": German needs its article apart
# from the bare name a list shows); a role without it is named by its bare name
ROLE_IN_TEXT: dict[str, str] = {}  # msgids in the context core.engine.messages.ROLE_WAS
ACTION_NAMES: dict[str, str] = {}
# the catalogs of roles from packages of their own (`core.engine.registry.extra_roles`)
ROLE_CATALOGS: list[Catalog] = []
CHANGELING_ROLES: set[RoleId] = set()  # the roles of the changelings' team (an awake changeling)
SHOWN_AS: dict[RoleId, RoleId] = {}  # the role a player is told he has, if not his own (CH-CONF)


def define_role(spec: RoleSpec, *, name: str, card: str, role_was: str | None = None,
                about: str | None = None, actions: dict[str, str] | None = None,
                catalog: Catalog | None = None) -> RoleSpec:
    """Register a role: its spec; its name, card, running-text name (`role_was`, in the
    context `core.engine.messages.ROLE_WAS`: `NC_("role was", "the Researcher")`) and
    description for the group (msgids; a role without `about` is described by its card); the
    names of actions it brings (msgids by action id); and, for a role from a package of its
    own, the catalog its texts are translated in."""
    if spec.id in ROLES:
        raise ValueError(f"the role {spec.id!r} is defined twice")
    ROLES[spec.id] = spec
    ROLE_NAMES[spec.id] = name
    ROLE_CARDS[spec.id] = card
    ROLE_ABOUT[spec.id] = about or card
    if role_was is not None:
        ROLE_IN_TEXT[spec.id] = role_was
    ACTION_NAMES.update(actions or {})
    if catalog is not None:
        ROLE_CATALOGS.append(catalog)
    if spec.side == CHANGELINGS:
        CHANGELING_ROLES.add(spec.id)
    return spec


# --------------------------------------------------------------------------- actions
# A check returns the `Refused` for an action the player may not send (now, or with these
# targets), None if he may; `targets` is empty when `offers` asks whether the power is still
# usable at all. It returns rather than raises: `offers` asks each spendable power's check
# many times a game, and a raise caught each time cost more than the check itself. A refusal
# without parameters may be made once and returned each time: the engine raises a fresh one
# with its text (`Refused.saying`), never the one returned.
ActionCheck = Callable[[Game, Player, tuple[PlayerId, ...], RoleId | None], Refused | None]
ACTION_CHECKS: ByKey[ActionCheck] = ByKey("check")
# Actions whose check refuses a living holder of the power nothing while no target is named
# (it looks at the targets alone, or at what holding the power already says): `offers` does
# not ask it (`powers.in_stage`).
UNASKED_BY_OFFERS: set[str] = set()
# What follows an accepted submission besides the engine's "Noted" (action id -> handler).
AFTER_ACT: ByKey[Callable[[Game, Player, Submission], None]] = ByKey("after-act")
# Actions whose actor must still send something before a night stage may close early
# (CH-EARLY), by stage.
STAGE_DUTIES: dict[str, set[str]] = {Stage.DUSK: set(), Stage.DAWN: set()}
# Owed choices of the reactions window (CH-REACT): kind -> the action that answers it.
OWED_ACTIONS: dict[ActionId, ActionSpec] = {}
# How an owed choice is asked for, and settled (target None: no answer before the prompt
# closed, or a pass; a target who has left meanwhile is None too).
PROMPT_OWED: ByKey[Callable[[Game, Owed], None]] = ByKey("owed-prompt")
ANSWER_OWED: ByKey[Callable[[Game, Owed, PlayerId | None], None]] = ByKey("owed-answer")


class ByStage(Generic[F]):
    """Handlers that run, in the order they were attached, only in the phase stages they name
    (`@TABLE.during(Stage.DAWN)`): outside those stages they are never asked; a handler for
    the players of one role alone names it (`role="drama_queen"`), and is not asked for the
    others. Read from `TABLE.handlers` (stage -> (role or None, handler) pairs), a plain dict
    for the reason `ByKey`'s is."""

    __slots__ = ("handlers",)

    def __init__(self) -> None:
        self.handlers: dict[str, list[tuple[str | None, F]]] = {}

    def during(self, *stages: str, role: str | None = None) -> Callable[[F], F]:
        def attach(handler: F) -> F:
            for stage in stages:
                self.handlers.setdefault(stage, []).append((role, handler))
            return handler

        return attach


# Actions a player may have besides his role's and the mayor's (after those, before `pass`),
# by the stages in which a hook may add any: elsewhere a player has only his standing ones.
EXTRA_ABILITIES: ByStage[Callable[[Game, Player], Sequence[ActionSpec]]] = ByStage()


def duty(stage: str, *actions: ActionSpec) -> None:
    STAGE_DUTIES[stage].update(spec.id for spec in actions)


def owed_action(spec: ActionSpec, name: str) -> ActionSpec:
    """An action that answers an owed choice of the same id (tie-break, chase, successor)."""
    OWED_ACTIONS[spec.id] = spec
    ACTION_NAMES[spec.id] = name
    return spec


# --------------------------------------------------------------------------- effects on a role
# Each returns True when the role turns the effect aside (then the shared mechanic does
# nothing more); keyed by the role of the player it reaches.
BANISHED: ByKey[Callable[[Game, Player], bool]] = ByKey("banished")
ABDUCTED: ByKey[Callable[[Game, Player], bool]] = ByKey("abducted")
EXCHANGED: ByKey[Callable[[Game, Player], bool]] = ByKey("exchanged")
# a prank, chase or fanatic strike (why, actor, hold: at night, wait for the step that says)
STRUCK: ByKey[Callable[[Game, Player, str, PlayerId, bool], bool]] = ByKey("struck")
# after the shared consequences of a removal (publication, heartbreak, succession)
REMOVED: ByKey[Callable[[Game, Player, str], None]] = ByKey("removed")
# a check's answer was told (by_researcher: the researcher's, else the queen's)
CHECKED: ByKey[Callable[[Game, Player, bool], None]] = ByKey("checked")
# the role a check shows (by_researcher); without a handler, the role itself
SEEN_AS: ByKey[Callable[[Player, bool], str]] = ByKey("seen-as")
# a dealt or listed set of roles with this role in it (raises SetupError if it may not play)
SETUP_CHECKS: ByKey[Callable[[Sequence[RoleId]], None]] = ByKey("setup-check")
# at the start, after every player has his card and the team knows itself
STARTED: ByKey[Callable[[Game, Player], None]] = ByKey("started")

# --------------------------------------------------------------------------- one role's hooks
# The role a night step's, a morning's, a day's or the end's handler acts for alone: in a game
# where that role was not dealt it has nothing to do, and is not run (`night.in_play`).
ROLE_OF: dict[Callable[..., object], RoleId] = {}


def for_role(role_id: str) -> Callable[[F], F]:
    """Mark a handler as acting for players of `role_id` alone (see `ROLE_OF`)."""

    def mark(handler: F) -> F:
        ROLE_OF[handler] = RoleId(role_id)
        return handler

    return mark


# --------------------------------------------------------------------------- the end (CH-END)
# A living counted non-changeling of this role could still turn the numbers.
REVERSES: ByKey[Callable[[Game, Player], bool]] = ByKey("reverses")
# Something owed in the game could still turn the numbers, whoever holds it.
REVERSAL_OWED: InOrder[Callable[[Game], bool]] = InOrder()

# --------------------------------------------------------------------------- days and mornings
DAY_BEGINS: InOrder[Callable[[Game], None]] = InOrder()  # before the vote opens
# Told in the morning post after the night's losses; True if it told something (else the
# morning is quiet).
MORNING_NEWS: InOrder[Callable[[Game], bool]] = InOrder()
MORNING_NOTES: InOrder[Callable[[Game], None]] = InOrder()  # after the new mayor
