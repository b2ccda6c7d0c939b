"""Balance estimates: many simulated games of one table (player count, roles, options) with
random or informed simulated players, summed up as a `Tally`.

The public surface is `play_games` and its value types; the agents live in submodules.
"""

from __future__ import annotations

from .options import parse_options
from .play import play_games
from .tally import PRESETS, Players, SideId, Skill, Tally

__all__ = ["PRESETS", "Players", "SideId", "Skill", "Tally", "parse_options", "play_games"]
