"""A player's statuses (`Player.statuses`): the type they share, and the ones the core names.

`PlayerStatus` has no members of its own: the core's statuses are `Status`'s, and each rule set
names its own in an enum derived from `PlayerStatus`, so that `Player.statuses` is a set of any
of them (the stored strings are the values, as with causes and stages).

Why members rather than plain strings: a status is asked at every vote and action, and a set
finds the very object it holds at once, but an equal plain string only through a slower
comparison. So code adds and asks the same members (statuses come into a game only through
code: the log is replayed, the scenario `setup` goes through the rule set's own functions),
and hot code reads them as module globals (in Python 3.11 an enum class's own `__getattr__`
makes `X.MEMBER` cost more than ten times a global's read).
"""

from __future__ import annotations

from enum import StrEnum


class PlayerStatus(StrEnum):
    """Any status a player may hold: the base of the core's `Status` and of each rule set's."""


class Status(PlayerStatus):
    """The statuses the core itself gives."""

    EARLY = "early"  # the player fixed his vote as early (`MarkEarly`)
