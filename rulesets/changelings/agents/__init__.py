"""Informed simulated players for the pony game (core/balance): each decides only from what
its player was told. Found by `core.balance.agents.agents_for` through the `nightfall.agents`
entry point."""

from __future__ import annotations

from .table import make_table

AGENTS = make_table

__all__ = ["AGENTS"]
