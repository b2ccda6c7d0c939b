"""The skill presets a host picks from, by name: how well the town reads (the agents' `r`,
core/balance/tally.py). A named preset is what the tables are keyed by and what the advisor
says it assumed ("a regular table")."""

from __future__ import annotations

from enum import StrEnum

from core.engine.messages import N_

from .tally import Skill


class Preset(StrEnum):
    NEW = "new"
    REGULAR = "regular"
    SHARP = "sharp"

    @property
    def r(self) -> float:
        return SKILLS[self].r

    @property
    def title(self) -> str:
        """The preset in running text (a msgid): "… at a regular table"."""
        return TITLES[self]


SKILLS = {Preset.NEW: Skill.NEW_TABLE, Preset.REGULAR: Skill.REGULAR, Preset.SHARP: Skill.SHARP}
TITLES = {Preset.NEW: N_("a new table"), Preset.REGULAR: N_("a regular table"),
          Preset.SHARP: N_("a sharp table")}
DEFAULT = Preset.REGULAR
