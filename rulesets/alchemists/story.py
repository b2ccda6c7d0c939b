"""The homunculus game's voice for the end-of-game summary's lines (core/story/summary.py):
every player with role, side and fate, the day's links, the Father's heirs, the Xing
Alchemist's successor and the Stone's holders; dark and grave, as the rest of the game."""

from __future__ import annotations

from core.engine.messages import N_, n_

STORY_TEXTS: dict[str, str | tuple[str, str]] = {
    "survived": N_("{name} was {role} ({side}) and lived to see the end."),
    "left_day": N_("{name} was {role} ({side}): {cause} on day {number}."),
    "left_night": N_("{name} was {role} ({side}): {cause} on night {number}."),
    "linked": N_("Day {number}: {first} and {second} were bound by a link."),
    "father": n_("The Father: {names}.",
              "The Father's mantle passed on, heir after heir: {names}."),
    "xing": n_("The Xing Alchemist: {names}.",
              "The Xing Alchemist's duty passed on: {names}."),
    "stone": n_("The Philosopher's Stone was held by {names}.",
              "The Philosopher's Stone passed from hand to hand: {names}."),
}
