"""The skill presets a host picks from, by name: how well the town reads (the agents' `r`,
core/balance/tally.py). A named preset is what the tables are keyed by and what the advisor
says it assumed ("a regular table"); a chat whose own games fit a skill between them
(core/balance/calibrate.py) is assumed at that skill instead (`Assumed`)."""

from __future__ import annotations

from enum import StrEnum

from .tally import Skill


class Preset(StrEnum):
    NEW = "new"
    REGULAR = "regular"
    SHARP = "sharp"

    @property
    def r(self) -> float:
        return SKILLS[self].r


SKILLS = {Preset.NEW: Skill.NEW_TABLE, Preset.REGULAR: Skill.REGULAR, Preset.SHARP: Skill.SHARP}
DEFAULT = Preset.REGULAR
#: the presets from the lowest skill to the highest
ORDERED = tuple(sorted(Preset, key=lambda p: p.r))
#: the skill an advice assumes: a preset (the host's word, or the default), or a chat's
#: fitted skill between the presets
Assumed = Preset | Skill


def nearest(r: float) -> Preset:
    """The preset closest to a skill (the lower one on a tie)."""
    return min(ORDERED, key=lambda p: abs(p.r - r))
