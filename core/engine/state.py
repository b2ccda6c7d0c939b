"""The game state: plain dataclasses, a projection of the event log.

Everything a rule needs lives here (per-role counters included, never in module globals), so
that a state can be snapshotted, compared after a replay, and stored.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields, is_dataclass
from enum import StrEnum
from typing import Any

from .commands import HostPower
from .ids import ActionId, PlayerId, RoleId
from .phase import Phase


@dataclass(slots=True)
class Player:
    """One seat. `pid` is stable for the whole game; `name` follows the account (host `replace`)."""

    pid: PlayerId
    name: str
    seat: int
    role: RoleId
    alive: bool = True
    cause: str | None = None
    statuses: set[str] = field(default_factory=set)  # `Status` values (core/engine/statuses.py)
    last_active: float = 0.0
    # the roles' facts about him, each read and written through its `role_state.Slot`
    counters: dict[str, object] = field(default_factory=dict)


@dataclass(slots=True)
class Submission:
    """A player's current choice for one action slot; a later submission replaces it.
    (`Game._perform_act` fills the slots one by one: a new field must be set there too.)"""

    actor: PlayerId
    action: ActionId
    targets: tuple[PlayerId, ...] = ()
    text: str | None = None
    role: RoleId | None = None
    seq: int = 0


@dataclass(slots=True)
class Owed:
    """A choice the game waits for in a reactions window (tie-break, chase, successor, take)."""

    kind: ActionId  # the action that answers it
    player: PlayerId
    options: tuple[PlayerId, ...]
    rank: int
    seq: int


@dataclass(slots=True)
class GameState:
    ruleset: str
    seed: int
    options: dict[str, Any]
    players: dict[PlayerId, Player]
    phase: Phase
    rng: random.Random
    paused: bool = False
    clock: float = 0.0
    seq: int = 0
    subs: dict[tuple[PlayerId, str], Submission] = field(default_factory=dict)
    acted: set[PlayerId] = field(default_factory=set)
    votes: dict[PlayerId, PlayerId] = field(default_factory=dict)  # voter → the voted
    vote_weights: dict[PlayerId, int] = field(default_factory=dict)
    vote_extra: dict[PlayerId, int] = field(default_factory=dict)
    # the last vote's deciding count
    closed_count: dict[PlayerId, int] = field(default_factory=dict)
    reactions: list[Owed] = field(default_factory=list)
    learned: dict[PlayerId, dict[PlayerId, str]] = field(default_factory=dict)
    removals: list[tuple[PlayerId, str]] = field(default_factory=list)
    host_log: list[tuple[str, int, HostPower]] = field(default_factory=list)  # phase kind, n, power
    winners: list[str] | None = None
    rs: Any = None  # the rule set's own state (a dataclass)
    # the flavour lists' shuffle bags, by each list's first msgid (`variety.draw`)
    bags: dict[str, list[int]] = field(default_factory=dict)

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def living(self) -> list[Player]:
        return [p for p in self.players.values() if p.alive]

    def living_ids(self) -> list[PlayerId]:
        return [p.pid for p in self.players.values() if p.alive]

    def by_name(self, name: str) -> Player | None:
        for p in self.players.values():
            if p.name == name:
                return p
        return None


_PLAIN = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}  # a dataclass's field names, asked once per class


def canonical(value: Any) -> Any:
    """A JSON-like, order-stable form of any state value, for comparing and storing states
    (already made of JSON's own types: it is stored as it is)."""
    kind = type(value)
    if kind in _PLAIN:  # the most common by far, answered first
        return value
    names = _FIELDS.get(kind)
    if names is not None:
        return {name: canonical(getattr(value, name)) for name in names}
    if isinstance(value, random.Random):
        version, internal, gauss = value.getstate()
        return ["rng", version, list(internal), gauss]
    if is_dataclass(value) and not isinstance(value, type):
        _FIELDS[kind] = tuple(f.name for f in fields(value))
        return {f.name: canonical(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return [[canonical(k), canonical(v)] for k, v in value.items()]
    if isinstance(value, (set, frozenset)):
        return sorted(canonical(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    return value.value if isinstance(value, StrEnum) else value  # a stage, a cause: its name
