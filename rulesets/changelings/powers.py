"""What a changelings player may do when nothing is owed to him: his role's powers, the
mayor's and `pass`, worked out once per role (the engine asks for every player at every
command, so these are cached tables rather than walks over the roles)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from core.engine.game import Game
from core.engine.ids import ActionId, RoleId
from core.engine.ruleset import ActionSpec
from core.engine.state import Player

from .hooks import ACTION_CHECKS, ROLES, UNASKED_BY_OFFERS, ActionCheck
from .mayor import POWERS
from .vocabulary import ALWAYS

PASS = ActionSpec(ActionId("pass"), ALWAYS, targets=0)
Extra = Callable[[Game, Player], Sequence[ActionSpec]]  # `hooks.EXTRA_ABILITIES`' handlers

ONLY_PASS = (PASS,)


@cache
def standing(role_id: RoleId, mayor: bool) -> tuple[ActionSpec, ...]:
    """What a player in the game has when nothing is owed to him and no role adds anything:
    his role's powers, the mayor's, and `pass`."""
    return (*ROLES[role_id].actions, *(POWERS if mayor else ()), PASS)


class _ByRole(dict[str, tuple[tuple[ActionSpec, ...], tuple[ActionSpec, ...]]]):
    """`standing` by role, then whether the player is the mayor (False, True): two subscripts
    where the engine asks at every action (a `functools.cache` call builds and hashes a key
    tuple each time); a role is worked out when first asked."""

    def __missing__(self, role_id: str) -> tuple[tuple[ActionSpec, ...], tuple[ActionSpec, ...]]:
        both = self[role_id] = (standing(RoleId(role_id), False), standing(RoleId(role_id), True))
        return both


STANDING = _ByRole()

#: `standing`'s powers of one stage, and each with its check (None: no power of them has one,
#: none may be spent)
InStage = tuple[tuple[ActionSpec, ...], tuple[tuple[ActionSpec, ActionCheck | None], ...] | None]

#: `in_stage` by stage, then role, then whether the player is the mayor (False, True): read by
#: subscripts of the phase's and the player's own strings and a bool, for every player at every
#: window (a `functools.cache` of the three built, hashed and compared a key tuple each time)
IN_STAGE: dict[str, dict[str, tuple[InStage, InStage]]] = {}


def in_stage(role_id: RoleId, mayor: bool, stage: str) -> InStage:
    """`standing`, those of this stage, each with its check: worked out for both values of
    `mayor` and kept in `IN_STAGE`."""
    both = (_in_stage(role_id, False, stage), _in_stage(role_id, True, stage))
    IN_STAGE.setdefault(stage, {})[role_id] = both
    return both[mayor]


def _in_stage(role_id: RoleId, mayor: bool, stage: str) -> InStage:
    """(Read only where the player is in the game and holds these powers: a check that then
    refuses nothing without targets is not asked, `UNASKED_BY_OFFERS`.)"""
    checks = {action: check for action, check in ACTION_CHECKS.handlers.items()
              if action not in UNASKED_BY_OFFERS}
    found = tuple(spec for spec in standing(role_id, mayor) if stage in spec.stages)
    if not any(spec.id in checks for spec in found):
        return found, None
    return found, tuple((spec, checks.get(spec.id)) for spec in found)


def extras_for(extras: Sequence[tuple[str | None, object]], role: str) -> bool:
    """Whether a stage's extra abilities have a hook for players of this role (a loop, not
    any(): asked for every action at dawn, and a generator costs more than the loop)."""
    for only, _ in extras:  # noqa: SIM110
        if only is None or only == role:
            return True
    return False


def extra_now(game: Game, p: Player, extras: Sequence[tuple[str | None, Extra]]) -> bool:
    """Whether a stage's extra abilities add one for this player now (a loop, not any(): no
    generator, asked of every player offered his actions in such a stage)."""
    role = p.role
    for only, more in extras:  # noqa: SIM110
        if (only is None or only == role) and more(game, p):
            return True
    return False


def with_checks(abilities: Sequence[ActionSpec],
                stage: str) -> list[tuple[ActionSpec, ActionCheck | None]]:
    """The abilities of this stage, each with its check (where `offers` has no table)."""
    checks = ACTION_CHECKS.handlers
    return [(spec, checks.get(spec.id)) for spec in abilities if stage in spec.stages]
