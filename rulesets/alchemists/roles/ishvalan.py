"""The Ishvalan, a loner (rules §5): kills one player each night, after the homunculi and the
Stone. Envy may copy his kill."""

from __future__ import annotations

from core.engine.ids import RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import RoleSpec

from .. import actions
from ..common import ISHVALAN
from ..hooks import Role, register
from ..night import COPYABLE, ROLE_ACTS, Copyable, NightStep, resolves

ROLE = register(Role(
    RoleSpec(RoleId("ishvalan"), ISHVALAN, (actions.KILL,)),
    name=N_("Ishvalan"),
    role_was=NC_("role was", "the Ishvalan"),
    card=N_("You are the Ishvalan. You stand alone. Each night you kill one player."),
    about=N_("Stands alone. Each night kills one player."),
    setup="required",
))
ROLE_ACTS["ishvalan", "kill"] = NightStep.ISHVALAN_KILL
COPYABLE["ishvalan"] = Copyable(actions.KILL.id, NightStep.ISHVALAN_KILL)


resolves(NightStep.ISHVALAN_KILL, "kill", actions.kill)
