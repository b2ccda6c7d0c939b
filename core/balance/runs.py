"""The advisor's way into the simulated games: `play_games` wrapped as an `estimate.Play`,
and the agents' version that a table's fingerprint includes."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from core.engine.ids import RoleId

from .estimate import Estimate, Play
from .play import play_games
from .setups import Setup
from .tally import Players

#: the advisor's own modules: changing them changes no simulated game, so no table
ADVISOR = frozenset({"advice.py", "answer.py", "balance_cli.py", "behaviour.py", "candidates.py",
                     "estimate.py", "history.py", "interval.py", "presets.py", "render.py",
                     "runs.py", "setups.py", "tables.py", "targets.py", "worker.py"})


def player(players_play: Players = Players.INFORMED) -> Play:
    """Games of a setup played by these players, as an estimate."""
    def play(setup: Setup, skill: float, games: int, seed: int) -> Estimate:
        tally = play_games(setup.ruleset, setup.players, tuple(RoleId(r) for r in setup.roles),
                           dict(setup.options), players_play, skill, games, seed)
        return Estimate(tally.games, {str(s): n for s, n in tally.wins}, tally.mean_days)
    return play


@cache
def agent_version() -> str:
    """A hash of the sources that play the simulated games (the agents, the drivers, the
    random players): a table from other agents answers another question."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    paths = [p for p in sorted(here.rglob("*.py")) if p.name not in ADVISOR]
    for path in [*paths, here.parent / "simulate.py"]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
