"""What a player may send, made once rather than a list per ask: `Alchemists.abilities` is
asked for every player every night (what he is offered) and again for every action he sends
(what it is validated against), and most of the time the answer is a fixed tuple."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from core.engine.ids import RoleId
from core.engine.ruleset import ActionSpec

from .actions import PASS
from .roles import ROLE_SPECS


@cache
def plain_abilities(role_id: RoleId) -> tuple[ActionSpec, ...]:
    """A living player's abilities when nothing is owed to him, his role's actions are fixed
    (no `OWN_ACTIONS`), he has gained nothing in play and does not hold the Stone: his role's
    actions and `pass`."""
    return (*ROLE_SPECS[role_id].actions, PASS)


# `OWN_ACTIONS`' answers (tuples the role modules keep: a homunculus's actions with a father,
# without one) with `pass`, by the answer's identity; an entry holds its answer, so the id is
# not reused while it is here. Bounded, for a hook that builds a new answer at every ask.
_WITH_PASS: dict[int, tuple[Sequence[ActionSpec], tuple[ActionSpec, ...]]] = {}
_WITH_PASS_MAX = 64


def with_pass(own: Sequence[ActionSpec]) -> tuple[ActionSpec, ...]:
    """The player's own actions (`OWN_ACTIONS`) and `pass`, when that is all he has."""
    entry = _WITH_PASS.get(id(own))
    if entry is not None and entry[0] is own:
        return entry[1]
    made = (*own, PASS)
    if len(_WITH_PASS) < _WITH_PASS_MAX:
        _WITH_PASS[id(own)] = (own, made)
    return made
