"""Typed ids: a player's seat id and a role's id are both strings at run time, but never the
same thing, so the type checker keeps them apart (and apart from display names); so is an
action's id, which every command, submission and prompt carries."""

from __future__ import annotations

from typing import NewType

PlayerId = NewType("PlayerId", str)  # stable for a whole game: "p1", "p2" ... in seat order
RoleId = NewType("RoleId", str)  # a rule set's role id: "pony", "changeling" ...
ActionId = NewType("ActionId", str)  # as a role's `ActionSpec` declares it: "check", "pass" ...
# a slot several actions share, the last sent replacing the others: "team", "stone" ...
SlotId = NewType("SlotId", str)

# the action every rule set declares and every keyboard carries: letting the window pass
PASS = ActionId("pass")
