"""The Xing Alchemist, town (rules §5): checks one player each night — homunculi, town or
loner. Shares a team chat with his bodyguard, who takes his place if he falls."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import RoleSpec

from .. import actions
from ..common import TOWN, state_of
from ..hooks import AT_START, Role, register
from ..night import COPYABLE, ROLE_ACTS, Copyable, NightStep, resolves

ROLE = register(Role(
    RoleSpec(RoleId("xing"), TOWN, (actions.CHECK,)),
    name=N_("Xing Alchemist"),
    role_was=NC_("role was", "the Xing Alchemist"),
    card=N_("You are the Xing Alchemist. Each night you check one player: homunculus, town "
            "or loner."),
    about=N_("Each night checks one player: homunculus, town or loner."),
    setup="required",
    team="guard",
))
ROLE_ACTS["xing", "check"] = NightStep.XING_CHECK
COPYABLE["xing"] = Copyable(actions.CHECK.id, NightStep.XING_CHECK)


@AT_START.append
def remember_the_original(game: Game) -> None:
    """Crimson's explosion takes the original xing only (not a bodyguard become xing)."""
    first = next((p for p in game.state.players.values() if p.role == "xing"), None)
    if first is not None:
        state_of(game).original_xing = first.pid


# Step 5: xing's check (a bodyguard become xing's too), then the copies of it.
resolves(NightStep.XING_CHECK, "check", actions.check)
