"""The default deal at every table size (AL-SIZE) [decision, issue 34]. The rule page fixes
the canonical fifteen and lets the host play 9–20 by leaving out optional roles and changing
the number of plain State Alchemists; which ones the default leaves out is the game master's
choice. Played by the informed simulated players (docs/balance.md), the canonical roles with
alchemists added or taken away gave the homunculi 60–87 % below 15 players and the town the
upper hand above 17; the roles sitting out below make the town and the homunculi even (within
about 5 points, each confirmed at 5,000 games: docs/alchemists-decisions.md has the table).
At fifteen the canonical game stands as the rules give it."""

from __future__ import annotations

from collections.abc import Mapping

from core.engine.ids import RoleId

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
