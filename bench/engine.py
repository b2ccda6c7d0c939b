"""Engine benchmark: complete random games per second, per rule set and table size.

Prints figures only (speed is never asserted in tests). The machine's speed varies from run to
run, so each configuration is measured in several rounds and the best and median are shown.
Run with `make bench` or `python bench/engine.py [--games N] [--rounds R]`.
"""

from __future__ import annotations

import argparse
import statistics

from core.engine.registry import available, load_ruleset
from core.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="*", default=[12, 15])
    args = parser.parse_args()
    print(f"{'ruleset':<13}{'players':>8}{'best g/s':>10}{'median g/s':>12}{'days':>7}")
    for ruleset_id in sorted(available()):
        ruleset = load_ruleset(ruleset_id)
        for players in args.players:
            rates = []
            days = 0.0
            for round_no in range(args.rounds):
                report = simulate(ruleset, players, args.games, seed=round_no * args.games)
                rates.append(report.games_per_second)
                days = report.days_total / report.games
            print(f"{ruleset_id:<13}{players:>8}{max(rates):>10.0f}"
                  f"{statistics.median(rates):>12.0f}{days:>7.2f}")


if __name__ == "__main__":
    main()
