"""`play_games`: the one call the balance advisor makes. Deterministic for a seed (game i is
dealt and played from `seed + i`), and made of picklable arguments and results, so a worker
process can run a slice of the games and the tallies add up (`Tally.__add__`)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from core.engine import Close, Game
from core.engine.ids import RoleId
from core.engine.phase import PhaseKind
from core.engine.registry import load_ruleset
from core.heap import freeze_long_lived
from core.simulate import MAX_WINDOWS, days_played, drive_window, new_game

from .agents import INFORMED, THEORY, Policy
from .driver import play_informed
from .tally import Players, SideId, Skill, Tally

_ENDED = PhaseKind.ENDED


def play_games(ruleset_id: str, players: int, roles: tuple[RoleId, ...] | None,
               options: Mapping[str, object], players_play: Players, skill: float | Skill,
               games: int, seed: int, *, policy: Policy | None = None) -> Tally:
    """Play `games` games of one table and count who won.

    `roles` is the host's list (one per seat, shuffled over the seats per game) or None for the
    rule set's deal; `options` the host's options (typed as the rule set's defaults). `skill`
    matters only to informed players, `policy` (the informed agents' knobs) only to them too.
    Raises `SetupError` for a table the rules refuse."""
    ruleset = load_ruleset(ruleset_id)
    freeze_long_lived(ruleset_id)
    r = skill.r if isinstance(skill, Skill) else Skill(skill).r
    wins: Counter[str] = Counter()
    draws = stuck = days = 0
    for i in range(games):
        game = play_one(ruleset_id, players, roles, options, players_play, r, seed + i, policy)
        winners = game.state.winners
        if winners is None:
            stuck += 1
        elif not winners:
            draws += 1
        else:
            wins.update(winners)
        days += days_played(game)
    return Tally(games, tuple((SideId(s), wins[s]) for s in ruleset.sides), draws, stuck, days)


def play_one(ruleset_id: str, players: int, roles: tuple[RoleId, ...] | None,
             options: Mapping[str, object], players_play: Players, r: float,
             seed: int, policy: Policy | None = None) -> Game:
    """One game, played to its end (or to the window limit), from one seed."""
    ruleset = load_ruleset(ruleset_id)
    rng = random.Random(seed ^ 0x5EED)
    dealt = None
    if roles is not None:  # the host's list, over the seats in an order of this game's own
        dealt = list(roles)
        rng.shuffle(dealt)
    game = new_game(ruleset, players, seed, tuple(dealt) if dealt else None, **options)
    if players_play is not Players.RANDOM:
        chosen = THEORY if players_play is Players.THEORY else policy or INFORMED
        play_informed(game, rng, r, chosen)
        return game
    close = Close()
    for _ in range(MAX_WINDOWS):
        if game.state.phase.kind is _ENDED:
            break
        drive_window(game, rng)
        if game.state.phase.kind is _ENDED:  # (re-read: the window may have ended the game)
            break
        game.apply(close)
    return game
