"""Greed, a rebel homunculus and a loner (rules §5): an absolute shield against night deaths
but the original father's own homunculi kill; searches for xing each night and absorbs him,
gaining xing's check from the next night. Greed and father are told of each other."""

from __future__ import annotations

from collections.abc import Sequence

from core.engine.game import Game
from core.engine.ids import PlayerId, RoleId
from core.engine.messages import N_, NC_, Ref, RefKind, player, role, to_player
from core.engine.role_state import Slot
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player

from .. import actions
from ..common import GREED, Cause
from ..hooks import GAINED_ACTIONS, Role, register
from ..night import ROLE_ACTS, SHIELDS, Night, NightStep, Rite, resolves
from .father import FATHER_MEETS

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and this is asked at every search (and `RoleId` is a call)
_XING, _ABSORBED = RoleId("xing"), Cause.ABSORBED

ROLE = register(Role(
    RoleSpec(RoleId("greed"), GREED, (actions.SEARCH,)),
    name=N_("Greed"),
    role_was=NC_("role was", "Greed"),
    card=N_("You are Greed, a rebel homunculus. No night death touches you but Father's "
            "own hand. Each night you search for the Xing Alchemist to absorb him."),
    about=N_("A rebel homunculus. No night death touches him but Father's own hand. Each night "
             "searches for the Xing Alchemist to absorb him."),
    setup="optional",
))
ROLE_ACTS["greed", "search"] = NightStep.GREED_SEARCH
ROLE_ACTS["greed", "check"] = NightStep.GREED_CHECK
# the night from which he checks, having absorbed xing (never, as long as he has not)
CHECK_FROM: Slot[int] = Slot("check_from", 1 << 30)


@GAINED_ACTIONS.append
def check_after_absorbing(game: Game, p: Player) -> Sequence[ActionSpec]:
    """From the night after he absorbed xing, greed also checks [decision]."""
    gained = p.role == "greed" and CHECK_FROM.get(p) <= game.state.phase.number
    return (actions.CHECK,) if gained else ()


@FATHER_MEETS.append
def meets_father(game: Game, head: Player) -> None:
    """Rules §2: father is told who greed is, and greed who father is [decision]."""
    greed = next((p for p in game.state.living() if p.role == "greed"), None)
    if greed is not None:
        game.learn(head.pid, greed.pid, greed.role)
        game.tell(to_player(head.pid), N_("{name} is {role}."), name=player(greed.pid),
                  role=role(greed.role))
        game.learn(greed.pid, head.pid, head.role)
        game.tell(to_player(greed.pid), N_("{name} is {role}."), name=player(head.pid),
                  role=role(head.role))


@SHIELDS.append
def shield(night: Night, victim: Player, cause: str, it: Rite | None,
           by: PlayerId | None) -> bool:
    """No night death by another hand touches greed but the homunculi kill executed by the
    original father. His own Stone backfire is not another hand (rules §5 [revised]): his
    backfired kill, and the poison of his own backfired heal on himself [decision]."""
    if victim.role != "greed":
        return False
    if cause == Cause.POISONED:
        return by != victim.pid
    fathers_own = (it is not None and it.homunculi
                   and by is not None and by == night.state.original_father
                   and night.players[by].role == "father")
    return not fathers_own


resolves(NightStep.GREED_CHECK, "check", actions.check)


def search(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    """He absorbs whoever holds the role `xing` at that moment (a bodyguard become xing
    included) and checks from the next night on; he keeps his search. He is told whom he
    absorbed and that he now checks (rules §5 [revised]), and knows that player's role."""
    found = actions.search(night, it, targets, _XING, _ABSORBED)
    if found is not None:
        hunter = night.players[it.actor]
        CHECK_FROM.set(hunter, night.number + 1)
        night.game.learn(hunter.pid, found.pid, found.role)
        night.game.tell(to_player(hunter.pid), N_("You absorbed {name}, {role}. From the next "
                                                  "night you also check one player each "
                                                  "night: homunculus, town or loner."),
                        name=player(found.pid), role=Ref(RefKind.ROLE_WAS, found.role),
                        absorbed=role(found.role))
        actions.absorbed(night, found, hunter)


resolves(NightStep.GREED_SEARCH, "search", search)
