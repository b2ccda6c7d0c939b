"""Balance benchmark: informed games per second per core (core/balance), beside the random
players (`play_games` with `Players.RANDOM`) and the engine's own random driver
(`core.simulate.simulate`, the speed before the informed players existed), for the changeling
game's default deal at 12 and 20 players.

Goal (issue 34): informed play ≥ 200 games/s per core at 12 players and ≥ 100 at 20. Games are
timed in this process's CPU time: on a shared machine the wall clock also counts the time other
processes held the core. The three kinds are interleaved round by round, so the machine's noise
hits all alike; the median of the rounds is printed. Prints figures only (never asserted).
Run with `python bench/balance.py [--games N] [--rounds R]`.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from core.balance import Players, Skill, play_games
from core.engine.registry import load_ruleset
from core.simulate import simulate

SIZES = (12, 20)
GOALS = {12: 200, 20: 100}


def rate(run: Callable[[int], object], games: int, seed: int) -> float:
    start = time.process_time()
    run(seed)
    return games / max(time.process_time() - start, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    games = args.games
    ruleset = load_ruleset("changelings")
    print(f"changelings, default deal, {games} games a round, median of {args.rounds} rounds "
          "(games per CPU second)")
    print(f"{'players':>7}  {'informed':>9}  {'random':>9}  {'engine':>9}  goal")
    for players in SIZES:
        kinds: dict[str, Callable[[int], object]] = {
            "informed": lambda seed, n=players: play_games(
                "changelings", n, None, {}, Players.INFORMED, Skill.REGULAR, games, seed),
            "random": lambda seed, n=players: play_games(
                "changelings", n, None, {}, Players.RANDOM, Skill.REGULAR, games, seed),
            "engine": lambda seed, n=players: simulate(ruleset, n, games, seed),
        }
        found: dict[str, list[float]] = {kind: [] for kind in kinds}
        for round_no in range(args.rounds):
            for kind, run in kinds.items():
                found[kind].append(rate(run, games, 1000 * round_no))
        median = {kind: statistics.median(values) for kind, values in found.items()}
        goal = GOALS[players]
        verdict = "met" if median["informed"] >= goal else "NOT met"
        print(f"{players:>7}  {median['informed']:>9.0f}  {median['random']:>9.0f}  "
              f"{median['engine']:>9.0f}  ≥ {goal} informed: {verdict}")


if __name__ == "__main__":
    main()
