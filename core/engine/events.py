"""What happened in a game, as typed records: one frozen dataclass per kind of event.

An event is the audit trail's unit (the service stores it beside the command that caused it,
the scenario runner and the story of a finished game read it). Each kind is declared once,
where it happens: the engine's own here, a rule set's in the module of the role or rule that
causes it, with `@event_kind("name")`. A rule set records one with `game.record(Escaped(p))`;
`game.event("escaped", player=p)` builds the same record by its kind's name and fails for a
kind nobody declared or a field it does not have, so a typo never reaches the log.

The stored form stays `[kind, data]` (see `Event.data`), so logs written before the kinds were
typed read the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, ClassVar, Protocol, TypeVar

from .commands import HostPower
from .ids import PlayerId
from .phase import Phase
from .quick_init import quick_init

E = TypeVar("E", bound="Event")

#: every declared kind, by its name
EVENT_KINDS: dict[str, type[Event]] = {}


@dataclass(frozen=True, slots=True)
class Event:
    """A fact that happened, in order. Subclasses name their `kind` with `event_kind`."""

    kind: ClassVar[str] = ""

    @property
    def data(self) -> dict[str, Any]:
        """The event's fields by name: its stored form beside `kind`."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def event_kind(kind: str) -> Callable[[type[E]], type[E]]:
    """Declare a kind of event. Declaring it again with the same fields (a rule set copied
    under another name, as the add-a-role test does) is harmless, and records built by name
    stay of the first declaration's class; with other fields it is a mistake that would make
    two rule sets' logs disagree."""

    def declare(cls: type[E]) -> type[E]:
        known = EVENT_KINDS.get(kind)
        if known is not None and _field_names(known) != _field_names(cls):
            raise TypeError(f"event kind {kind!r} is declared twice with different fields: "
                            f"{known.__qualname__} and {cls.__qualname__}")
        cls.kind = kind
        EVENT_KINDS.setdefault(kind, cls)  # the first declaration builds records by name
        quick_init(cls)  # every game records some 180 events
        return cls

    return declare


def _field_names(cls: type[Event]) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def make_event(kind: str, data: Mapping[str, Any]) -> Event:
    """The record of a declared kind with these fields (TypeError for a missing or unknown
    field, KeyError for a kind nobody declared)."""
    try:
        cls = EVENT_KINDS[kind]
    except KeyError:
        raise KeyError(f"no event kind {kind!r} is declared (see core/engine/events.py)") \
            from None
    return cls(**data)


class _OfPhase(Protocol):
    @property
    def phase(self) -> Phase: ...


P = TypeVar("P", bound=_OfPhase)


def found_by_phase(cls: Callable[[Phase], P]) -> Callable[[Phase], P]:
    """`cls(phase)`, found rather than built, like `voted` below: every window begins and
    closes with such a record. Phases are found by identity: `Phase.of` makes each one once,
    and a phase's own (generated) hash costs nearly as much as building the record. A record
    is kept with its phase, so an id is never confused with a dead phase's; the bound keeps a
    service that parses phases from being filled with them."""
    made: dict[int, P] = {}

    def of(phase: Phase) -> P:
        event = made.get(id(phase))
        if event is None or event.phase is not phase:
            if len(made) >= 4096:
                made.clear()
            event = made[id(phase)] = cls(phase)
        return event

    return of


# ---------------------------------------------------------------------- the engine's own
@event_kind("phase")
@dataclass(frozen=True, slots=True)
class PhaseBegan(Event):
    """A new phase (or window) began."""

    phase: Phase


phase_began = found_by_phase(PhaseBegan)


@event_kind("closed")
@dataclass(frozen=True, slots=True)
class Closed(Event):
    """The window's deadline passed (or the host forced it)."""

    phase: Phase


closed = found_by_phase(Closed)


@event_kind("closed_early")
@dataclass(frozen=True, slots=True)
class ClosedEarly(Event):
    """The window closed before its deadline: everybody who had to act has."""

    phase: Phase


closed_early = found_by_phase(ClosedEarly)


@event_kind("voted")
@dataclass(frozen=True, slots=True)
class Voted(Event):
    """A vote was cast (`target` None: withdrawn)."""

    voter: PlayerId
    target: PlayerId | None


# A vote is recorded for nearly every command of a day: its record is found rather than built
# (immutable, so one is shared; the bound keeps a long-running service's cache small).
voted = lru_cache(maxsize=4096)(Voted)


@event_kind("counted")
@dataclass(frozen=True, slots=True)
class Counted(Event):
    """The votes that decided a window, by target."""

    votes: dict[PlayerId, int]


@event_kind("removed")
@dataclass(frozen=True, slots=True)
class Removed(Event):
    """A player left the game: `cause` says how, `role` what he was."""

    player: PlayerId
    cause: str
    role: str


# every removal: the same few players, causes and roles in game after game (typed: a cause
# given as a plain string and one given as its enum member stay records of their own kind)
removed = lru_cache(maxsize=4096, typed=True)(Removed)


@event_kind("left")
@dataclass(frozen=True, slots=True)
class Left(Event):
    """A player left of his own accord (/flee)."""

    player: PlayerId


@event_kind("learned")
@dataclass(frozen=True, slots=True)
class Learned(Event):
    """A player learned something about another (a check's result)."""

    observer: PlayerId
    subject: PlayerId
    value: Any


# the team's introductions and every check's finding: found as `voted` is
learned = lru_cache(maxsize=4096)(Learned)


@event_kind("host")
@dataclass(frozen=True, slots=True)
class HostActed(Event):
    """The host used one of his powers."""

    command: HostPower
    target: PlayerId | None
    by: str | None
    minutes: int


@event_kind("ended")
@dataclass(frozen=True, slots=True)
class Ended(Event):
    """The game is decided: the winning sides."""

    winners: tuple[str, ...]
