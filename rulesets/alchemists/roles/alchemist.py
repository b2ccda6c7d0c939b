"""The plain State Alchemist, town (rules §5): no night action; he makes up the numbers."""

from __future__ import annotations

from core.engine.ids import RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import RoleSpec

from ..common import TOWN
from ..hooks import Role, register

ROLE = register(Role(
    RoleSpec(RoleId("alchemist"), TOWN, special=False),
    name=N_("State Alchemist"),
    role_was=NC_("role was", "a State Alchemist"),
    card=N_("You are a State Alchemist. You have no night action. Find the homunculi "
            "and vote them out."),
    about=N_("Has no night action; hunts the homunculi by word and vote."),
    setup="filler",
    canonical=4,
))
