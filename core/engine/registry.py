"""Finding rule sets: the `nightfall.rulesets` entry point group, so a community can ship its
own rule set as a separate package."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from .ruleset import Ruleset

RULESET_ENTRY_POINTS = "nightfall.rulesets"


@cache
def available() -> dict[str, str]:
    """Rule set id → entry point value."""
    return {ep.name: ep.value for ep in entry_points(group=RULESET_ENTRY_POINTS)}


@cache
def load_ruleset(ruleset_id: str) -> Ruleset:
    for ep in entry_points(group=RULESET_ENTRY_POINTS):
        if ep.name == ruleset_id:
            ruleset = ep.load()
            if not isinstance(ruleset, Ruleset):
                raise TypeError(f"entry point {ep.value} is not a Ruleset")
            return ruleset
    raise KeyError(ruleset_id)
