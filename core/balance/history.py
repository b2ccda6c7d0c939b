"""What a chat's own finished games say beside the prediction: how many of this rule set it
finished and how often the headline side won (shown as it is), and each game's setup as it
was dealt (what core/balance/calibrate.py fits the chat's skill from)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from core.engine.dealing import options_and_roles
from core.engine.outcome import GameSetup
from core.engine.registry import load_ruleset
from core.engine.ruleset import SetupError

from .setups import Setup, played_options


@dataclass(frozen=True, slots=True)
class Finished:
    """One finished game as the advisor reads it: its setup as dealt (None where today's
    rules can no longer deal it) and the sides that won (none: a draw)."""

    ruleset: str
    setup: Setup | None
    winners: tuple[str, ...]


def finished(game_setup: GameSetup, winners: Iterable[str]) -> Finished:
    """A finished game from its engine setup: the roles the game's own deal gave (the same
    draw from the same seed, so no replay is needed; roles changed during the game do not
    count) and the options that change play."""
    ruleset = load_ruleset(game_setup.ruleset)
    try:
        options, roles = options_and_roles(ruleset, game_setup, random.Random(game_setup.seed))
    except SetupError:
        return Finished(ruleset.id, None, tuple(winners))
    return Finished(ruleset.id, Setup(ruleset.id, tuple(sorted(roles)),
                                      played_options(ruleset, options)), tuple(winners))


@dataclass(frozen=True, slots=True)
class History:
    ruleset: str
    side: str
    games: int
    won: int

    @property
    def rate(self) -> float:
        return self.won / self.games if self.games else 0.0


def history(games: Iterable[Finished], ruleset: str, side: str) -> History:
    """The chat's finished games of `ruleset` and the wins of `side` among them."""
    mine = [g for g in games if g.ruleset == ruleset]
    return History(ruleset, side, len(mine), sum(side in g.winners for g in mine))
