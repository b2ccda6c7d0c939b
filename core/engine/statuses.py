"""The statuses the core itself gives a player; each rule set names its own in its own enum
(`Status` beside its `Cause` and `Stage`). The stored strings are the values.

`Player.statuses` holds the values, plain strings, not the members: a status is asked at every
vote and action, and a set lookup takes its fast path only for an exact `str` (a member, a
`str` subclass, has its hash asked through the type, some ten nanoseconds more a lookup, which
callgrind showed as 0.1 to 0.4 % of a game). So code adds and asks `Status.X.value`, read
once into a module global wherever it is asked more than once a game (in Python 3.11 an enum
class's own `__getattr__` makes `X.MEMBER` cost more than ten times a global's read, and
`.value` is a property written in Python); the value is the very string object the literal
would be, so every check finds the object the set holds. The hottest checks (the changelings'
at every action and count) write the value as a literal: a constant loads faster than a
global, some 0.15 % of a game.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """The statuses the core itself gives."""

    EARLY = "early"  # the player fixed his vote as early (`MarkEarly`)
