"""What a changelings player may do when nothing is owed to him: his role's powers, the
mayor's and `pass`, worked out once per role (the engine asks for every player at every
command, so these are cached tables rather than walks over the roles)."""

from __future__ import annotations

from functools import cache

from core.engine.ids import ActionId, RoleId
from core.engine.ruleset import ActionSpec

from .hooks import ACTION_CHECKS, ROLES
from .mayor import POWERS
from .vocabulary import ALWAYS

PASS = ActionSpec(ActionId("pass"), ALWAYS, targets=0)

ONLY_PASS = (PASS,)


@cache
def standing(role_id: RoleId, mayor: bool) -> tuple[ActionSpec, ...]:
    """What a player in the game has when nothing is owed to him and no role adds anything:
    his role's powers, the mayor's, and `pass`."""
    return (*ROLES[role_id].actions, *(POWERS if mayor else ()), PASS)


@cache
def standing_in_stage(role_id: RoleId, mayor: bool,
                      stage: str) -> tuple[tuple[ActionSpec, ...], bool]:
    """`standing`, those of this stage, and whether any may be spent (has a check)."""
    found = tuple(spec for spec in standing(role_id, mayor) if stage in spec.stages)
    return found, any(spec.id in ACTION_CHECKS.handlers for spec in found)
