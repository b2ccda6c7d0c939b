"""Commands: everything that can happen to a game, as plain data.

`at` is the game clock in seconds, supplied by whoever drives the engine (the service's real
clock, the scenario runner's virtual one); the engine never reads a clock itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from .causes import OutOfStory
from .ids import ActionId, PlayerId, RoleId
from .quick_init import quick_init


@quick_init  # built for every action and vote
@dataclass(frozen=True, slots=True)
class Act:
    """A private night action, a reaction, or a day-time power (tie-break, successor)."""

    by: PlayerId
    action: ActionId
    targets: tuple[PlayerId, ...] = ()
    text: str | None = None
    role: RoleId | None = None
    at: float = 0.0


@quick_init  # built for every action and vote
@dataclass(frozen=True, slots=True)
class Vote:
    """A day vote or election vote; `target=None` withdraws the current vote."""

    by: PlayerId
    target: PlayerId | None
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class MarkEarly:
    """The voter fixes his current vote as early (alchemists)."""

    by: PlayerId
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Say:
    """The player wrote in the group: it only counts as activity."""

    by: PlayerId
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Whisper:
    """A private message to the bot meant for the sender's team (or one named teammate): the
    rule set decides who may hear it, and the engine forwards it."""

    by: PlayerId
    text: str
    to: PlayerId | None = None
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Leave:
    """A player leaves a running game: of his own accord (`/flee`, confirmed: cause `left`),
    or out of the game's group chat (he left it and stayed away for the grace time:
    `left_chat`; someone kicked or banned him: `kicked`). He leaves as a host's removal takes
    a player out: each rule set treats all of them alike, and only tells them apart in
    words (causes.py). `cause` is one of those three."""

    by: PlayerId
    at: float = 0.0
    cause: OutOfStory = OutOfStory.LEFT


# ---------------------------------------------------------------- the host's powers
# One command per power, each with the fields it needs; `power` is its name in commands and
# in the `host` event every one of them records.
HostPower = Literal["pause", "resume", "extend", "force", "modkill", "replace", "announce"]


@dataclass(frozen=True, slots=True)
class Pause:
    """Stop the clock and every command until `Resume`; `unreachable`: the service paused the
    game, as it could not write in the game's chat (the group is told so)."""

    unreachable: bool = False
    at: float = 0.0
    power: ClassVar[HostPower] = "pause"


@dataclass(frozen=True, slots=True)
class Resume:
    at: float = 0.0
    power: ClassVar[HostPower] = "resume"


@dataclass(frozen=True, slots=True)
class Extend:
    """Move the open window's deadline by `minutes` (negative shortens); the service moves
    the deadline, the engine tells the group."""

    minutes: int
    at: float = 0.0
    power: ClassVar[HostPower] = "extend"


@dataclass(frozen=True, slots=True)
class Force:
    """Close the open window now."""

    at: float = 0.0
    power: ClassVar[HostPower] = "force"


@dataclass(frozen=True, slots=True)
class Modkill:
    """Take a player out of the game (cause `modkill`)."""

    target: PlayerId
    at: float = 0.0
    power: ClassVar[HostPower] = "modkill"


@dataclass(frozen=True, slots=True)
class Replace:
    """Another account takes over a seat: the seat keeps its role; `newcomer` is the name
    the seat is shown by from now on."""

    seat: PlayerId
    newcomer: str
    at: float = 0.0
    power: ClassVar[HostPower] = "replace"


@dataclass(frozen=True, slots=True)
class Announce:
    """Tell the group a text in the host's name."""

    text: str
    at: float = 0.0
    power: ClassVar[HostPower] = "announce"


HostCommand = Pause | Resume | Extend | Force | Modkill | Replace | Announce
HOST_COMMANDS: tuple[type[HostCommand], ...] = (
    Pause, Resume, Extend, Force, Modkill, Replace, Announce)


@dataclass(frozen=True, slots=True)
class Close:
    """The current window's deadline passed."""

    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock moved; nothing else happened (lets a driver advance time explicitly)."""

    at: float = 0.0


Command = Act | Vote | MarkEarly | Say | Whisper | Leave | HostCommand | Close | Tick
