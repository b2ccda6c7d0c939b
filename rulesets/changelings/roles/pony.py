"""The plain pony: no power at night; votes by day (rules §5)."""

from __future__ import annotations

from core.engine.ids import RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import RoleSpec

from ..hooks import define_role
from ..vocabulary import PONIES

ROLE = define_role(
    RoleSpec(RoleId("pony"), PONIES, special=False),
    name=N_("Pony"),
    role_was=NC_("role was", "a pony"),
    card=N_("You are a pony. You have no power at night; by day you vote to banish the "
            "changelings hiding among you."),
    about=N_("Ponies have no power at night; by day they vote to banish the changelings hiding "
             "among you."),
)
