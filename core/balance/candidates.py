"""The legal role sets near a host's: one role more or fewer (its seat taken from, or given
back to, the filler role), and the rule set's own deal. One step at a time, because a host
reads a recommendation as a change to make ("−1 changeling", "+1 shield"), and because every
candidate costs simulated games."""

from __future__ import annotations

from collections import Counter
from functools import cache

from core.engine.registry import load_ruleset

from .setups import Setup, default_roles, legal


def neighbours(setup: Setup) -> list[Setup]:
    """Every legal setup one role away from `setup`, and the default deal, without `setup`
    itself; in a fixed order (the table's and the tests')."""
    ruleset = load_ruleset(setup.ruleset)
    target = ruleset.balance
    if target is None:
        return []
    filler = target.filler
    have = Counter(setup.roles)
    repeated = _repeated(setup.ruleset)
    found: dict[str, Setup] = {}
    for role in sorted(ruleset.roles):
        if role == filler:
            continue
        if have[filler] and (not have[role] or role in repeated):  # one more, for a filler
            _add(found, setup.with_roles([*_without(setup.roles, filler), role]))
        if have[role]:  # one fewer, its seat to a filler
            _add(found, setup.with_roles([*_without(setup.roles, role), filler]))
    deal = setup.with_roles(default_roles(ruleset, setup.players, setup.all_options()))
    _add(found, deal)
    found.pop(setup.key(), None)
    return list(found.values())


@cache
def _repeated(ruleset_id: str) -> frozenset[str]:
    """The roles a deal holds more than once (the plain changeling): the only ones worth a
    second copy; two researchers are legal but no host's question."""
    ruleset = load_ruleset(ruleset_id)
    deal = Counter(default_roles(ruleset, ruleset.max_players, {}))
    return frozenset(role for role, n in deal.items() if n > 1)


def _without(roles: tuple[str, ...], role: str) -> list[str]:
    left = list(roles)
    left.remove(role)
    return left


def _add(found: dict[str, Setup], setup: Setup) -> None:
    if setup.key() not in found and legal(setup):
        found[setup.key()] = setup
