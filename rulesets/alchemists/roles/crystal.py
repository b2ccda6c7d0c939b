"""The Crystal Alchemist, town (rules §5, AL-HEAL): heals one player each night (himself
allowed, no repeat limit) against the kills and absorptions of steps 7–8."""

from __future__ import annotations

from core.engine.ids import RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import RoleSpec

from .. import actions
from ..common import TOWN
from ..hooks import Role, register
from ..night import COPYABLE, ROLE_ACTS, Copyable, NightStep, resolves

ROLE = register(Role(
    RoleSpec(RoleId("crystal"), TOWN, (actions.HEAL,)),
    name=N_("Crystal Alchemist"),
    role_was=NC_("role was", "the Crystal Alchemist"),
    card=N_("You are the Crystal Alchemist. Each night you heal one player, yourself "
            "included, against the night's kills."),
    about=N_("Each night heals one player, possibly himself, against the night's kills."),
    setup="required",
))
ROLE_ACTS["crystal", "heal"] = NightStep.CRYSTAL_HEAL
COPYABLE["crystal"] = Copyable(actions.HEAL.id, NightStep.CRYSTAL_HEAL)


resolves(NightStep.CRYSTAL_HEAL, "heal", actions.heal)
