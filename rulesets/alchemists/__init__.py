"""Alchemists: the Russian forum's homunculus mafia, rules in `../shared/rules/alchemists.md`;
readings of silent points in `docs/alchemists-decisions.md`."""

from .ruleset import Alchemists

RULESET = Alchemists()

__all__ = ["RULESET", "Alchemists"]
