"""The night actions roles share with each other and with the Stone, which imitates them
(AL-STONE: "like the role actions"): their specs and names, and what each does when it
resolves — block, check, heal, search, kill, link, copy."""

from __future__ import annotations

from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import N_, player, to_player
from core.engine.ruleset import ActionSpec
from core.engine.state import Player

from .common import ANY_TIME, AT_NIGHT, Cause, check_result
from .hooks import ACTION_NAMES
from .night import COPYABLE, Night, Rite

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and this is asked at every kill
_KILLED = Cause.KILLED

KILL = ActionSpec(ActionId("kill"), AT_NIGHT, self_ok=False, harmful=True)
SEARCH = ActionSpec(ActionId("search"), AT_NIGHT, self_ok=False, harmful=True)
CHECK = ActionSpec(ActionId("check"), AT_NIGHT, self_ok=False)
HEAL = ActionSpec(ActionId("heal"), AT_NIGHT)
LINK = ActionSpec(ActionId("link"), AT_NIGHT, targets=2)
PASS = ActionSpec(ActionId("pass"), ANY_TIME, targets=0)

ACTION_NAMES.update({"kill": N_("Kill"), "search": N_("Search"), "check": N_("Check"),
                     "link": N_("Link"), "heal": N_("Heal"), "pass": N_("Pass")})


def block(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    """AL-BLOCK: stops the target's actions that resolve after this one."""
    reached = night.reach(it, targets[0])
    if reached is not None:
        night.board.block(reached, it.pos)


def check(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    """Xing's check: homunculi, town or loner, told under the name the checker gave (a
    reflected or copied check reports under that name too)."""
    named = it.named if it.named is not None else it.targets[0]
    reached = night.reach(it, targets[0])
    if reached is None:
        night.game.tell(to_player(it.actor), N_("Your check of {name} found nothing."),
                        name=player(named))
        return
    night.tell_check(it.actor, named, check_result(night.players[reached]))


def heal(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    """AL-HEAL: the target survives the kills and absorptions of steps 7–8."""
    reached = night.reach(it, targets[0])
    if reached is not None:
        night.board.protected.add(reached)


def kill(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    reached = night.reach(it, targets[0])
    if reached is not None and night.players[reached].alive:
        night.dies(night.players[reached], _KILLED, it)


def search(night: Night, it: Rite, targets: tuple[PlayerId, ...], wanted: RoleId,
           cause: str) -> Player | None:
    """A search for the role `wanted`: the found player leaves (`cause`) unless a heal or a
    shield saves him; returns him if he left."""
    reached = night.reach(it, targets[0])
    if reached is None:
        return None
    found = night.players[reached]
    if not found.alive or found.role != wanted or found.pid == it.actor:
        return None
    return found if night.dies(found, cause, it) else None


def absorbed(night: Night, victim: Player, absorber: Player) -> None:
    """An absorbed player may keep talking to his absorber (rules §5, §8), so he is told who
    absorbed him (rules §5 [revised]); the absorber knows whom he searched."""
    night.state.absorbed_by[victim.pid] = absorber.pid
    night.game.tell(to_player(victim.pid), N_("{name} has absorbed you. You are out of the "
                                             "game, but you may still speak with {name} "
                                             "through me."), name=player(absorber.pid))


def link(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    """The linker's link: the two cannot vote against each other tomorrow; a reflected half
    links the sender with the other named player."""
    if len(targets) < 2:
        return
    a, b = targets
    first = night.reach(it, a)
    if first is None:
        return
    if first == it.actor and a != it.actor:
        pair = (it.actor, b)
    else:
        second = night.reach(it, b)
        if second is None:
            return
        pair = (a, it.actor) if second == it.actor and b != it.actor else (a, b)
    if pair[0] != pair[1]:
        night.links.append(pair)


def copy(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    """AL-COPY: the source's current main ability, used by the copier on the target at that
    ability's own step (after the role's own use of it)."""
    source, target = targets
    if source in night.board.immune or target in night.board.immune:
        return
    copied = COPYABLE.get(night.players[source].role)
    reached = night.reach(it, target)
    if copied is None or reached is None:
        night.game.tell(to_player(it.actor), N_("Your copy came to nothing."))
        return
    if copied.with_copier and reached == it.actor:
        return
    aim = (reached, it.actor) if copied.with_copier else (reached,)
    order = 2 if it.stone else 1
    # a copy reflected onto its sender still reports under the name he gave (like any
    # reflected check: his own side under the checked name)
    night.schedule(Rite(it.actor, copied.ability, aim,
                        (copied.step, order, night.players[it.actor].seat),
                        named=target))
