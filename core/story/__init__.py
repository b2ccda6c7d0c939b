"""The story of a finished game: its data (`model.py`, `build.py`), its picture
(`picture.py`), its archive page (`page.py`) and the statistics drawn from stories."""

from .build import build_story, story_of
from .model import Action, Fate, PlayerStory, Story, VoteRound, When

__all__ = ["Action", "Fate", "PlayerStory", "Story", "VoteRound", "When", "build_story",
           "story_of"]
