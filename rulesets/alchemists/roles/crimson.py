"""The Crimson Alchemist, a loner (rules §5): searches for the ishvalan each night and kills
him if found; explodes when the day's vote executes him, taking the original xing and the
original father with him; the Stone backfires on him 10 points less often."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import PlayerId, RoleId
from core.engine.messages import GROUP, N_, NC_, player
from core.engine.ruleset import RoleSpec
from core.engine.state import Player

from .. import actions
from ..common import CRIMSON, Cause, state_of
from ..hooks import AFTER_EXECUTIONS, BACKFIRE_DISCOUNTS, Role, register
from ..night import COPYABLE, ROLE_ACTS, Copyable, Night, NightStep, Rite, resolves

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and this is asked at every search (and `RoleId` is a call)
_ISHVALAN, _KILLED = RoleId("ishvalan"), Cause.KILLED

ROLE = register(Role(
    RoleSpec(RoleId("crimson"), CRIMSON, (actions.SEARCH,)),
    name=N_("Crimson Alchemist"),
    role_was=NC_("role was", "the Crimson Alchemist"),
    card=N_("You are the Crimson Alchemist. You stand alone. Each night you search for "
            "the Ishvalan; find him and he dies. If the town executes you, you explode."),
    about=N_("Stands alone. Each night searches for the Ishvalan; if found, the Ishvalan dies. "
             "Explodes if the town executes him."),
    setup="optional",
))
ROLE_ACTS["crimson", "search"] = NightStep.CRIMSON_SEARCH
COPYABLE["crimson"] = Copyable(actions.SEARCH.id, NightStep.CRIMSON_SEARCH)

EXPLOSION = (
    N_("The Crimson Alchemist explodes!"),
    N_("A red flash. The Crimson Alchemist's last transmutation tears the square apart!"),
    N_("The Crimson Alchemist smiles, claps once, and explodes!"),
    N_("One last beautiful sound: the Crimson Alchemist explodes!"),
    N_("The Crimson Alchemist detonates. The ground shakes; the smoke is red."),
)


def search(night: Night, it: Rite, targets: tuple[PlayerId, ...]) -> None:
    actions.search(night, it, targets, _ISHVALAN, _KILLED)


# Step 7: crimson's search, then copies of it.
resolves(NightStep.CRIMSON_SEARCH, "search", search)


@BACKFIRE_DISCOUNTS.append
def steadier_hands(holder: Player) -> float:
    return 0.10 if holder.role == "crimson" else 0.0


@AFTER_EXECUTIONS.append
def explodes(game: Game, executed: list[Player]) -> None:
    """Only an execution makes him explode (a dodged crimson does not), after every execution
    of the day, so it never takes a player the vote has already executed. It takes the
    original xing and the original father if alive and still in those roles; the group is
    told their names, as of every death, but not their sides — and in random order, as the
    morning post lists its dead, since a fixed order would tell which body was father
    [revised]. They leave in that order too."""
    for p in executed:  # a loop, not any() over a generator: asked every day
        if p.role == "crimson":
            break
    else:
        return
    state = state_of(game)
    game.narrate(GROUP, EXPLOSION)
    victims = []
    for pid, role_id in ((state.original_xing, "xing"), (state.original_father, "father")):
        if pid is None:
            continue
        victim = game.state.players[pid]
        if victim.alive and victim.role == role_id:
            victims.append(victim)
    game.rng.shuffle(victims)
    if victims:
        game.tell_n(GROUP, "The explosion takes {names} with him.",
                    "The explosion takes {count:w} others with him: {names}.", len(victims),
                    names=tuple(player(v.pid) for v in victims))
    else:
        game.tell(GROUP, N_("The explosion takes nobody with him."))
    for victim in victims:
        game.remove(victim, Cause.EXPLODED)
