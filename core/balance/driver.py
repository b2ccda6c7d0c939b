"""Informed games: each player's agent decides from its own `View` (see view.py)."""

from __future__ import annotations

import random

from core.engine import Game


def play_informed(game: Game, rng: random.Random, r: float) -> None:
    """Play the game to its end with informed agents of the game's rule set."""
    raise NotImplementedError(f"no informed players for {game.ruleset.id} yet")
