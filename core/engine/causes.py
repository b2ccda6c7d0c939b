"""The causes of leaving a game that the core knows: those by which a player is taken out
rather than dies in the story. Every other cause is a rule set's, in its own enum."""

from __future__ import annotations

from enum import StrEnum


class OutOfStory(StrEnum):
    """The causes by which a player is taken out rather than dies in the story: the host's
    removal and a player's own leaving — by `/flee`, or out of the game's chat (the
    core's), and a rule set's automatic removal (`missed`). Rule sets treat them alike (no
    reactions, no night list). A rule set's own causes are its own enum's (the stored
    strings are the values)."""

    MODKILL = "modkill"
    MISSED = "missed"
    LEFT = "left"  # the player's own /flee
    LEFT_CHAT = "left_chat"  # he left the game's group chat and did not come back in time
    KICKED = "kicked"  # someone removed (kicked or banned) him from the game's group chat


OUT_OF_STORY = frozenset(OutOfStory)
