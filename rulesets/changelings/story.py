"""The pony game's voice for the end-of-game summary's lines (core/story/summary.py): every
pony with role, side and fate, the lovers, the mayors; playful, as the rest of the game."""

from __future__ import annotations

from core.engine.messages import N_, n_

STORY_TEXTS: dict[str, str | tuple[str, str]] = {
    "survived": N_("{name} was {role} ({side}) and trotted safely to the very end."),
    "left_day": N_("{name} was {role} ({side}): {cause} on day {number}."),
    "left_night": N_("{name} was {role} ({side}): {cause} on night {number}."),
    "lovers": N_("{first} and {second} were lovers, heart to heart and hoof in hoof."),
    "mayor": n_("Only {names} wore the mayor's sash, all game long.",
              "The mayor's sash went from pony to pony: {names}."),
}
