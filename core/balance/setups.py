"""A table as the advisor sees it: the rule set, the player count, the roles dealt (as a
sorted multiset: who gets which does not matter to a win rate) and the options that change
how the game plays. Two setups with the same key are the same question, whether the host
listed the roles or took the rule set's deal."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.engine.ids import RoleId
from core.engine.registry import load_ruleset
from core.engine.ruleset import Ruleset, SetupError

#: options that change nothing a simulated game decides (timing, who holds what from the
#: start, the deal's own count, which the role list already says): left out of the key
NOT_PLAYED = frozenset({"inactivity_hours", "early_close", "stone_holder", "changelings"})


@dataclass(frozen=True, slots=True)
class Setup:
    """One table: `roles` sorted, one per player; `options`: those that differ from the rule
    set's defaults and change play, sorted by name."""

    ruleset: str
    roles: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def players(self) -> int:
        return len(self.roles)

    def key(self) -> str:
        """The setup as a table file stores it: roles with counts, then the options."""
        counts = Counter(self.roles)
        roles = ",".join(f"{r}*{n}" if n > 1 else r for r, n in sorted(counts.items()))
        options = ";".join(f"{k}={v}" for k, v in self.options)
        return f"{roles}|{options}" if options else roles

    def all_options(self) -> dict[str, Any]:
        """The options a game of this setup starts with."""
        return {**load_ruleset(self.ruleset).default_options, **dict(self.options)}

    def with_roles(self, roles: Sequence[str]) -> Setup:
        return Setup(self.ruleset, tuple(sorted(roles)), self.options)


def played_options(ruleset: Ruleset, options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The options that differ from the defaults and change play, in a key's order."""
    return tuple(sorted((k, v) for k, v in options.items()
                        if k not in NOT_PLAYED and ruleset.default_options.get(k) != v))


def default_roles(ruleset: Ruleset, players: int, options: Mapping[str, Any]) -> list[str]:
    """The rule set's deal for this many players (its composition is fixed; only the
    seating is drawn)."""
    return sorted(ruleset.deal(players, {**ruleset.default_options, **options},
                               random.Random(0)))


def setup_of(ruleset_id: str, players: int, roles: Sequence[str] | None,
             options: Mapping[str, Any]) -> Setup:
    """The setup a sign-up would start: the host's roles (cut or filled as the game's own
    start does not: the list must fit the count) or the rule set's deal."""
    ruleset = load_ruleset(ruleset_id)
    listed = list(roles) if roles else default_roles(ruleset, players, options)
    if len(listed) != players:
        raise SetupError("Give exactly one role per player.")
    return Setup(ruleset_id, tuple(sorted(listed)), played_options(ruleset, options))


def legal(setup: Setup) -> bool:
    """Whether the rule set's deal rules allow this role list with these options."""
    ruleset = load_ruleset(setup.ruleset)
    if not ruleset.min_players <= setup.players <= ruleset.max_players:
        return False
    if any(RoleId(r) not in ruleset.roles for r in setup.roles):
        return False
    try:
        ruleset.check_setup([RoleId(r) for r in setup.roles], setup.all_options())
    except SetupError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Change:
    """One step from a setup to another: `count` more (or, negative, fewer) of a role."""

    role: str
    count: int


def difference(current: Setup, other: Setup, filler: str) -> tuple[Change, ...]:
    """What changes from `current` to `other`, the filler role left out (it only takes the
    seats the others leave): "−1 changeling", "+1 shield"."""
    before, after = Counter(current.roles), Counter(other.roles)
    return tuple(Change(role, after[role] - before[role])
                 for role in sorted(set(before) | set(after))
                 if role != filler and after[role] != before[role])
