"""Typed per-player facts a role keeps across a game (spent powers, a faked role, a take).

They are stored in `Player.counters`, a plain dict, so that a state stays a projection of the
event log that can be snapshotted, compared after a replay and stored. The role module that
owns a fact declares it once as a `Slot` -- its stored key, its type, what reading an absent
fact gives -- and every access goes through that declaration:

    FANATIC_USED: Slot[bool] = Slot("fanatic_used", False)
    if FANATIC_USED.get(p): ...
    FANATIC_USED.set(p, True)

A fact shared by several roles is declared in the rule set's own state module. Only this
module names a key in `counters` (`tests/unit/test_role_state.py`). A slot writes only what
it is given: an absent fact stays absent (a snapshot tells absent from falsy), and `get`
never stores its default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from .state import Player

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Slot(Generic[T]):
    """One fact about a player: `key` in his `counters`, `default` when it is not there."""

    key: str
    default: T

    # Plain dict operations: rule checks ask these whenever a player's actions are offered.
    # The declaration is what types the value, so a read is not `cast` (a call on every read).
    def get(self, player: Player) -> T:
        return player.counters.get(self.key, self.default)  # type: ignore[return-value]

    def set(self, player: Player, value: T) -> None:
        player.counters[self.key] = value

    def pop(self, player: Player) -> T:
        """The fact, removed (the default when there was none): news told once."""
        return player.counters.pop(self.key, self.default)  # type: ignore[return-value]
