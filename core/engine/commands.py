"""Commands: everything that can happen to a game, as plain data.

`at` is the game clock in seconds, supplied by whoever drives the engine (the service's real
clock, the scenario runner's virtual one); the engine never reads a clock itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Act:
    """A private night action, a reaction, or a day-time power (tie-break, successor)."""

    by: str
    action: str
    targets: tuple[str, ...] = ()
    text: str | None = None
    role: str | None = None
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Vote:
    """A day vote or election vote; `target=None` withdraws the current vote."""

    by: str
    target: str | None
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class MarkEarly:
    """The voter fixes his current vote as early (alchemists)."""

    by: str
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Say:
    """The player wrote in the group: it only counts as activity."""

    by: str
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Whisper:
    """A private message to the bot meant for the sender's team (or one named teammate): the
    rule set decides who may hear it, and the engine forwards it."""

    by: str
    text: str
    to: str | None = None
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Leave:
    """A player leaves a running game of his own accord (`/flee`, confirmed). He leaves as a
    host's removal takes a player out (cause `left`): each rule set treats both alike."""

    by: str
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Host:
    """A host command: pause, resume, extend, force, modkill, replace, announce."""

    command: str
    target: str | None = None
    by: str | None = None
    minutes: int = 0
    text: str | None = None
    at: float = 0.0
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Close:
    """The current window's deadline passed."""

    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock moved; nothing else happened (lets a driver advance time explicitly)."""

    at: float = 0.0


Command = Act | Vote | MarkEarly | Say | Whisper | Leave | Host | Close | Tick
