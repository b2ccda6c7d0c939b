"""Envy, a homunculus (rules §5, AL-COPY): copies a source's current main ability and uses it
on a target, in that ability's own step."""

from __future__ import annotations

from core.engine.ids import ActionId, RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import ActionSpec, RoleSpec

from .. import actions
from ..common import AT_NIGHT, HOMUNCULI
from ..hooks import ACTION_NAMES, OWN_ACTIONS, Role, register
from ..night import ROLE_ACTS, NightStep, resolves
from ._homunculi import REQUEST, leaderless_or_own

COPY = ActionSpec(ActionId("copy"), AT_NIGHT, targets=2)
ACTION_NAMES["copy"] = N_("Copy")

ROLE = register(Role(
    RoleSpec(RoleId("envy"), HOMUNCULI, (REQUEST, COPY)),
    name=N_("Envy"),
    role_was=NC_("role was", "Envy"),
    card=N_("You are Envy, a homunculus. Each night you may copy another player's ability "
            "and use it on a target of your choice. Send your kill requests to Father."),
    about=N_("A homunculus. Each night may copy another player's ability and use it on any target; "
             "sends kill requests to Father."),
    setup="optional",
    left_out=2,
))
OWN_ACTIONS["envy"] = leaderless_or_own(ROLE.spec)
ROLE_ACTS["envy", "copy"] = NightStep.ENVY_COPY


# Step 4: the copied ability is scheduled at its own step (see `night.COPYABLE`).
resolves(NightStep.ENVY_COPY, "copy", actions.copy)
