"""The default deal at every table size (AL-SIZE) [decision, issue 34]. The rule page fixes
the canonical fifteen and lets the host play 9–20 by leaving out optional roles and changing
the number of plain State Alchemists; which ones the default leaves out is the game master's
choice. Played by the informed simulated players (docs/balance.md), the canonical roles with
alchemists added or taken away gave the homunculi 60–87 % below 15 players and the town the
upper hand above 17; the roles sitting out below make the town and the homunculi even (within
about 5 points, each confirmed at 5,000 games: docs/alchemists-decisions.md has the table).
At fifteen the canonical game stands as the rules give it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from core.engine.ids import RoleId
from core.engine.messages import role
from core.engine.ruleset import SetupError

from .options import CHOICES
from .roles import CANONICAL, FILLER, LEAVE_OUT, OPTIONAL, REQUIRED

_FEWEST = (RoleId("linker"), RoleId("envy"), RoleId("lust"), RoleId("bodyguard"))
_FEWER = (RoleId("lust"), RoleId("greed"), RoleId("crimson"))
_FEW_MORE = (RoleId("lust"), RoleId("greed"))
_FEW = (RoleId("lust"),)
_MORE = (RoleId("crimson"),)
_MOST = (RoleId("bodyguard"),)

#: the optional roles that sit out of the default deal, by the number of players: below 15
#: a homunculus (and at 9–12 one or two loners, at 9–10 also two town roles), above 15 a loner
#: or the bodyguard
SITTING_OUT: Mapping[int, tuple[RoleId, ...]] = {
    9: _FEWEST, 10: _FEWEST, 11: _FEWER, 12: _FEW_MORE, 13: _FEW, 14: _FEW,
    16: _MORE, 17: _MORE, 18: _MOST, 19: _MOST, 20: _MOST,
}


def deal_roles(count: int, rng: random.Random) -> list[RoleId]:
    """AL-SIZE: the canonical roles but the filler and those sitting out at this size
    [decision], then plain alchemists up to the count; a deal that still holds more roles than
    players (a role package's extra role) drops optional ones in their `left_out` order."""
    specials = [r for r in CANONICAL if r != FILLER and r not in SITTING_OUT.get(count, ())]
    for left_out in LEAVE_OUT[: max(0, len(specials) - count)]:
        if left_out in specials:
            specials.remove(left_out)
    roles = specials + [FILLER] * (count - len(specials))
    rng.shuffle(roles)
    return roles


def check_setup(roles: Sequence[RoleId], options: dict[str, Any]) -> None:
    """The roles each game needs once, those it may hold once, and the options' values.
    (Counted with `count`, not a `Counter`: whose making asks `isinstance` of an abstract
    class, once for every game a simulation plays.)"""
    for needed in REQUIRED:
        if roles.count(needed) != 1:
            raise SetupError("Every game needs exactly one {role}.", role=role(needed))
    for optional in OPTIONAL:
        if roles.count(optional) > 1:
            raise SetupError("There can be only one {role}.", role=role(optional))
    for option in ("stone_backfire", "early_votes_needed"):
        if options.get(option) not in CHOICES[option]:
            raise SetupError("Option {option} has a wrong value.", option=option)
    if options.get("stone_after_deaths") and options["stone_after_deaths"] < 1:
        raise SetupError("Option {option} has a wrong value.", option="stone_after_deaths")
