"""The skill presets a host picks from, by name: how well the town reads (the agents' `r`,
core/balance/tally.py). A named preset is what the tables are keyed by and what the advisor
says it assumed ("a regular table")."""

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
