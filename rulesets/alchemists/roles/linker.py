"""The Life-Linking Alchemist, town (rules §5): links two players each night (himself
allowed); the next day they cannot vote against each other. A copied link joins the copier
with the target."""

from __future__ import annotations

from core.engine.ids import RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import RoleSpec

from .. import actions
from ..common import TOWN
from ..hooks import Role, register
from ..night import COPYABLE, ROLE_ACTS, Copyable, NightStep, resolves

ROLE = register(Role(
    RoleSpec(RoleId("linker"), TOWN, (actions.LINK,)),
    name=N_("Life-Linking Alchemist"),
    role_was=NC_("role was", "the Life-Linking Alchemist"),
    card=N_("You are the Life-Linking Alchemist. Each night you link two players: the "
            "next day they cannot vote against each other."),
    about=N_("Each night links two players: the next day they cannot vote against each other."),
    setup="optional",
    left_out=1,
))
ROLE_ACTS["linker", "link"] = NightStep.LINKER_LINK
COPYABLE["linker"] = Copyable(actions.LINK.id, NightStep.LINKER_LINK, with_copier=True)


resolves(NightStep.LINKER_LINK, "link", actions.link)
