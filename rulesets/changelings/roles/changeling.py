"""The plain changeling: a member of the team, with the team's abduction and exchange
(`team.py`)."""

from __future__ import annotations

from core.engine.ids import RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import RoleSpec

from ..hooks import define_role
from ..team import ACTION_NAMES, ACTIONS
from ..vocabulary import CHANGELINGS

ROLE = define_role(
    RoleSpec(RoleId("changeling"), CHANGELINGS, ACTIONS, special=False),
    name=N_("Changeling"),
    role_was=NC_("role was", "a changeling"),
    card=N_("You are a changeling. Each night the changelings agree on one pony to abduct; "
            "once per game you may exchange a pony instead, making them one of you."),
    about=N_("Each night the changelings agree on one pony to abduct; once per game they may "
             "exchange a pony instead and make them one of their own."),
    actions=ACTION_NAMES,
)
