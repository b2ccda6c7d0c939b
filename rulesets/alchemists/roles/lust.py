"""Lust, a homunculus (rules §5): blocks one player's later actions each night (AL-BLOCK)."""

from __future__ import annotations

from core.engine.ids import ActionId, RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import ActionSpec, RoleSpec

from .. import actions
from ..common import AT_NIGHT, HOMUNCULI
from ..hooks import ACTION_NAMES, OWN_ACTIONS, Role, register
from ..night import ROLE_ACTS, NightStep, resolves
from ._homunculi import REQUEST, leaderless_or_own

BLOCK = ActionSpec(ActionId("block"), AT_NIGHT, self_ok=False, harmful=True)
ACTION_NAMES["block"] = N_("Block")

ROLE = register(Role(
    RoleSpec(RoleId("lust"), HOMUNCULI, (REQUEST, BLOCK)),
    name=N_("Lust"),
    role_was=NC_("role was", "Lust"),
    card=N_("You are Lust, a homunculus. Each night you may block one player's action. "
            "Send your kill requests to Father."),
    about=N_("A homunculus. Each night may block one player's action; sends kill requests to "
             "Father."),
    setup="optional",
))
OWN_ACTIONS["lust"] = leaderless_or_own(ROLE.spec)
ROLE_ACTS["lust", "block"] = NightStep.LUST_BLOCK


# Step 2, after the Stone's block (which may have stopped hers).
resolves(NightStep.LUST_BLOCK, "block", actions.block)
