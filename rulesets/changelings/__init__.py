"""Changelings: the German forum's pony game (ponies vs. changelings), rules in
`../shared/rules/changelings.md`; readings of silent points in `docs/changelings-decisions.md`."""

from .ruleset import Changelings

RULESET = Changelings()

__all__ = ["RULESET", "Changelings"]
