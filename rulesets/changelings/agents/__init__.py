"""Informed simulated players for the pony game (core/balance): each decides only from what
its player was told. Found by `core.balance.agents.agents_for` through the `nightfall.agents`
entry point."""

from __future__ import annotations

from core.balance.agents import Agents

from .table import Table

AGENTS: Agents = Table  # the class is the call: a game's views in, its `Strategy` out

__all__ = ["AGENTS"]
