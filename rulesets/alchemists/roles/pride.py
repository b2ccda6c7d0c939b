"""Pride, a homunculus (rules §5): searches for crimson each night and absorbs him if found,
gaining `take`: whoever he names (at any time, the last naming counts) leaves with him when he
dies. Dead by day with no standing choice, he is asked in the reactions window; dead at night
with none, during the next day. Nothing protects against a take. He becomes father when
father dies (AL-FATHER, see `father.py`), keeping his search and his take."""

from __future__ import annotations

from collections.abc import Sequence

from core.engine.game import OUT_OF_STORY, Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import GROUP, N_, NC_, player, to_player
from core.engine.phase import PhaseKind
from core.engine.refusals import Refused
from core.engine.role_state import Slot
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player, Submission

from .. import actions
from ..common import ANY_TIME, HOMUNCULI, Cause, Stage, state_of
from ..day import close_if_early
from ..hooks import (
    ACCEPTED,
    ACTION_NAMES,
    CHECKS,
    DAY_BEGUN,
    DAY_CLOSED,
    GAINED_ACTIONS,
    ON_REMOVED,
    OWED_ACTIONS,
    OWN_ACTIONS,
    REACTIONS,
    STANDING,
    Reaction,
    Role,
    register,
)
from ..night import ROLE_ACTS, Night, NightStep, Rite, resolves
from ._homunculi import REQUEST, leaderless_or_own

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and this is asked at every search (and `RoleId` is a call)
_CRIMSON, _ABSORBED = RoleId("crimson"), Cause.ABSORBED

TAKE = ActionSpec(ActionId("take"), ANY_TIME, self_ok=False, harmful=True)
ACTION_NAMES["take"] = N_("Take")
RANK_TAKE = 1  # its place among owed reactions
# he has absorbed crimson, so holds the take, and whom he has named for it so far
HAS_TAKE: Slot[bool] = Slot("take", False)
TAKE_TARGET: Slot[PlayerId | None] = Slot("take_target", None)

ROLE = register(Role(
    RoleSpec(RoleId("pride"), HOMUNCULI, (REQUEST, actions.SEARCH)),
    name=N_("Pride"),
    role_was=NC_("role was", "Pride"),
    card=N_("You are Pride, a homunculus. Each night you search for the Crimson Alchemist; "
            "find him and you absorb him, and whoever you name will fall with you. You "
            "take Father's place if he dies."),
    about=N_("A homunculus. Each night searches for the Crimson Alchemist; if Pride finds him, "
             "Pride absorbs him, and whoever Pride then names falls with Pride. Takes Father's "
             "place if Father dies."),
    setup="optional",
))
OWN_ACTIONS["pride"] = leaderless_or_own(ROLE.spec)
# pride's search, and his search as father
ROLE_ACTS["pride", "search"] = NightStep.PRIDE_SEARCH
ROLE_ACTS["father", "search"] = NightStep.PRIDE_SEARCH


def search(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    found = actions.search(night, it, targets, _CRIMSON, _ABSORBED)
    if found is not None:
        hunter = night.players[it.actor]
        HAS_TAKE.set(hunter, True)
        night.game.tell(to_player(hunter.pid), N_("You absorbed the Crimson Alchemist. Name "
                                                  "whoever shall fall with you."))
        actions.absorbed(night, found, hunter)


resolves(NightStep.PRIDE_SEARCH, "search", search)


# -------------------------------------------------------------- the take
# read as a global: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and this is asked whenever anybody's actions are
_REACTIONS, _VOTE = Stage.REACTIONS, Stage.VOTE


def owed_take(game: Game, p: Player) -> Sequence[ActionSpec]:
    """His take, when it is owed now: dead by day (executed), he is asked in the reactions
    window; dead at night, during the next day's vote. A modkill owes nothing (rules §10)."""
    s = game.state
    stage = s.phase.stage
    if stage == _REACTIONS:
        reactions = s.reactions  # the first is `game.current_owed()`
        return (TAKE,) if reactions and reactions[0].player == p.pid else ()
    return (TAKE,) if stage == _VOTE and s.rs.take_owed_next_day == p.pid else ()


for _stage in (_REACTIONS, _VOTE):  # the stages in which it can be owed
    OWED_ACTIONS.setdefault(_stage, []).append(owed_take)


@GAINED_ACTIONS.append
def standing_take(game: Game, p: Player) -> Sequence[ActionSpec]:
    return (TAKE,) if HAS_TAKE.get(p) else ()


def prompt_take(game: Game, p: Player) -> bool:
    """His standing take is not pushed at him by night; an owed one is."""
    owed = game.current_owed()
    return (owed is not None and owed.player == p.pid) or (
        state_of(game).take_owed_next_day == p.pid)


def check_take(game: Game, p: Player, spec: ActionSpec, targets: tuple[PlayerId, ...]) -> None:
    if game.current_owed() is None and (
            state_of(game).take_owed_next_day != p.pid and not p.alive):
        raise Refused(N_("You cannot take anyone now."))


def accept_take(game: Game, p: Player, sub: Submission) -> bool:
    """A standing take is remembered (and confirmed); an owed one in the reactions window
    counts when the prompt closes; one owed since a night death applies at once."""
    if game.state.phase.stage == Stage.REACTIONS:
        return False
    if not p.alive:
        state_of(game).take_owed_next_day = None
        settle_take(game, p.pid, sub.targets[0])
        close_if_early(game)
        return False
    TAKE_TARGET.set(p, sub.targets[0])
    return True


def settle_take(game: Game, pride: PlayerId, target: PlayerId | None) -> None:
    """The named player leaves with him; nothing protects against it. A take never names
    pride: at night the taken player is one more body in the morning post; by day the group
    is told only that he has died as well (rules §5)."""
    if target is None:
        return
    victim = game.state.players[target]
    if victim.alive:
        game.remove(victim, Cause.TAKEN)
        if game.state.phase.kind != PhaseKind.NIGHT:
            game.tell(GROUP, N_("{name} has died as well."), name=player(target))


STANDING["take"] = prompt_take
CHECKS["take"] = check_take
ACCEPTED["take"] = accept_take
REACTIONS["take"] = Reaction(N_("You have fallen. Name the one who falls with you."),
                             settle_take)


@ON_REMOVED.append
def falls_with_him(game: Game, p: Player, cause: str) -> None:
    """A modkill is a penalty, not a death in the story (§10): no take follows it."""
    # (`counters` asked first: at most removals they are empty, and `get` is a call)
    if not p.counters or not HAS_TAKE.get(p) or cause in OUT_OF_STORY:
        return
    target = TAKE_TARGET.get(p)
    if target is not None:
        settle_take(game, p.pid, target)
    elif game.state.phase.kind == PhaseKind.NIGHT:
        state_of(game).take_owed_next_day = p.pid
    else:
        game.owe(TAKE.id, p.pid, [], RANK_TAKE)


@DAY_BEGUN.append
def ask_after_night_death(game: Game) -> None:
    owed = state_of(game).take_owed_next_day
    if owed is not None:
        game.tell(to_player(owed), N_("You fell in the night. Name the one who falls with you, "
                                      "now or never."))


@DAY_CLOSED.append
def too_late(game: Game) -> None:
    state_of(game).take_owed_next_day = None
