"""What a game starts from and what each accepted command leaves behind: the setup that
replays a game, and one command's outcome: the events of its audit trail (events.py)
and the messages it tells."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .events import Event
from .ids import PlayerId, RoleId
from .messages import Message


@dataclass(slots=True)
class Outcome:
    """What one accepted command produced."""

    events: list[Event] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything needed to start (and so to replay) a game."""

    ruleset: str
    players: tuple[tuple[PlayerId, str], ...]  # (pid, display name) in seat order
    seed: int = 0
    roles: tuple[RoleId, ...] | None = None  # one per seat; None = the rule set's deal
    options: tuple[tuple[str, Any], ...] = ()
    setup: tuple[tuple[str, Any], ...] = ()  # starting statuses (scenario `setup`)
    start: str | None = None
    at: float = 0.0  # when the game begins: every player's clock (his last activity) starts
