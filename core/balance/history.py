"""What a chat's own finished games say beside the prediction: how many of this rule set it
finished and how often the headline side won (the calibration's raw data, shown as it is)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from core.story.model import Story
from core.story.stats import group_stats


@dataclass(frozen=True, slots=True)
class History:
    ruleset: str
    side: str
    games: int
    won: int

    @property
    def rate(self) -> float:
        return self.won / self.games if self.games else 0.0


def history(stories: Iterable[Story], ruleset: str, side: str) -> History:
    """The chat's finished games of `ruleset` and the wins of `side` among them."""
    stats = group_stats((story, ()) for story in stories)
    return History(ruleset, side, stats.games[ruleset], stats.wins[(ruleset, side)])
