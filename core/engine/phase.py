"""Phases: which day or night it is and which window of it is open."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache


class PhaseKind(StrEnum):
    """Day, night, or the game's end (the values are the names stored in logs and rows)."""

    DAY = "day"
    NIGHT = "night"
    ENDED = "ended"


class Stage(StrEnum):
    """The stages the core itself names; a rule set names its windows in its own `StrEnum`
    (whose values are the stored names), so `Phase.stage` is any rule set's stage."""

    NONE = ""  # a night (or day) of a single window
    SETUP = "setup"  # the engine's opening, before the deal
    REACTIONS = "reactions"  # a day's window after its verdict, for the reactions it owes


@dataclass(frozen=True, slots=True)
class Phase:
    """`kind` is day, night or ended; `stage` names the open window ("" if the rule set's
    night has a single stage)."""

    kind: PhaseKind
    number: int
    stage: str = Stage.NONE

    def __str__(self) -> str:
        if self.kind == PhaseKind.ENDED:
            return "ended"
        return f"{self.kind} {self.number} {self.stage}".rstrip()

    @staticmethod
    @cache
    def of(kind: PhaseKind, number: int, stage: str = Stage.NONE) -> Phase:
        """The phase with these parts, made once: phases are immutable values, every window
        change enters one, and building a frozen dataclass is comparatively slow."""
        return Phase(kind, number, stage)

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Read a phase name like "night 1 dusk" or "day 2 vote"; raise ValueError if malformed."""
        if not isinstance(text, str):
            raise ValueError(f"not a phase: {text!r}")
        parts = text.split()
        if parts == ["ended"]:
            return cls(PhaseKind.ENDED, 0)
        if len(parts) not in (2, 3) or parts[0] not in ("day", "night") or not parts[1].isdigit():
            raise ValueError(f"not a phase: {text!r}")
        return cls(PhaseKind(parts[0]), int(parts[1]), parts[2] if len(parts) == 3 else "")


ENDED = Phase(PhaseKind.ENDED, 0)
