"""Engine cost per game in callgrind's estimated cycles, beside the floor (commit f94fd2b).

Why: the promise of issue 28 is that the engine costs per game no more than f94fd2b, and the
shared 2-core machine moves processor-time figures (`bench/engine.py`) by 10 % and more from
run to run. Callgrind counts what the interpreter executes, with a model of the caches and the
branch predictor, and the machine's load does not move them, so a change of 0.5 % shows.

For each tree (this one, and the floor's `core` and `rulesets` extracted with `git archive`),
each rule set and each table size, the tree's bytecode is compiled first, then two runs under
`valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes` with PYTHONHASHSEED=0: a warm-up
game (seed 999) alone, and the warm-up game followed by N seeded random games
(`core.simulate.simulate(ruleset, players, N, seed=7)`). Their difference is the cost of the N
games, start-up and first-time costs left out. Estimated cycles are Ir + 10 × L1 misses + 100 ×
last-level misses + 10 × branch mispredictions. The speed ratio is floor cost / this cost:
at least 1.0 keeps the promise (`--floor main` compares with another commit the same way).
Per day divides by the days the N games lasted: since issue 33's flavour bags the trees play
different games from one seed, and 20 games are too few to fix a game's mean length, so per
day is the fairer figure. Repeated runs of one tree differ by some 0.1 to 0.3 % (the runs are
not quite deterministic). Slow (some minutes: one callgrind run at a time); figures only.

    .venv/bin/python bench/engine_cycles.py [--games 20] [--players 12 15] [--floor COMMIT]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engine import FLOOR, HERE, RULESETS, extract_floor

# What valgrind runs: only what both code bases have (a rule set's `RULESET`, `simulate`).
WORKER = """
import importlib, sys
from core.simulate import simulate
ruleset = importlib.import_module("rulesets." + sys.argv[1]).RULESET
players, games = int(sys.argv[2]), int(sys.argv[3])
simulate(ruleset, players, 1, seed=999)
if games:
    print(simulate(ruleset, players, games, seed=7).days_total)
"""

# callgrind's events, as named in its output's `events:` line, and their weight in cycles
WEIGHTS = {"Ir": 1, "I1mr": 10, "D1mr": 10, "D1mw": 10, "ILmr": 100, "DLmr": 100, "DLmw": 100,
           "Bcm": 10, "Bim": 10}


@dataclass(frozen=True)
class Cost:
    """What a callgrind run counted: estimated cycles, instructions, and the games' days."""

    cycles: int
    instructions: int
    days: int = 0

    def __sub__(self, other: Cost) -> Cost:
        return Cost(self.cycles - other.cycles, self.instructions - other.instructions,
                    self.days - other.days)


def callgrind(root: Path, ruleset_id: str, players: int, games: int) -> Cost:
    """Run the worker in `root` under callgrind and read its totals."""
    with tempfile.TemporaryDirectory(prefix="nightfall-cg-") as tmp:
        out = Path(tmp) / "callgrind.out"
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root)}
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--cache-sim=yes", "--branch-sim=yes",
             f"--callgrind-out-file={out}", sys.executable, "-c", WORKER, ruleset_id,
             str(players), str(games)],
            cwd=root, env=env, capture_output=True, text=True, check=True)
        events: list[str] = []
        totals: list[int] = []
        for line in out.read_text().splitlines():
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("totals:") or line.startswith("summary:"):
                totals = [int(n) for n in line.split()[1:]]
        counted = dict(zip(events, totals, strict=False))
        cycles = sum(weight * counted.get(name, 0) for name, weight in WEIGHTS.items())
        days = int(run.stdout.split()[-1]) if games else 0
        return Cost(cycles, counted.get("Ir", 0), days)


def compile_tree(root: Path) -> None:
    """Compile the tree's bytecode beforehand, so no run pays for compiling."""
    for package in ("core", "rulesets"):
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / package)],
                       check=True, capture_output=True)


def per_games(root: Path, ruleset_id: str, players: int, games: int) -> Cost:
    """The cost of `games` seeded games, the warm-up run subtracted."""
    warm = callgrind(root, ruleset_id, players, 0)
    return callgrind(root, ruleset_id, players, games) - warm


def pair(a: float, b: float) -> str:
    """Two costs in millions, this tree's first."""
    return f"{a / 1e6:.3f}/{b / 1e6:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="*", default=[12, 15])
    parser.add_argument("--rulesets", nargs="*", default=list(RULESETS))
    parser.add_argument("--floor", default=FLOOR, help="the commit to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nightfall-floor-") as tmp:
        floor = Path(tmp)
        why_not = extract_floor(floor, args.floor)
        if why_not is not None:
            sys.exit(f"floor {args.floor} not extracted: {why_not}")
        trees = {"this": HERE, args.floor: floor}
        for root in trees.values():
            compile_tree(root)
        print(f"{args.games} games each (seed 7) after a warm-up game (seed 999), per game and"
              f" per day in millions, this / {args.floor}; speed = {args.floor} cost / this"
              " cost", flush=True)
        print(f"{'ruleset':<12}{'pl':>3}{'days':>9}{'cycles/game':>16}{'cycles/day':>16}"
              f"{'speed game':>11}{'speed day':>10}{'instr/game':>16}", flush=True)
        for ruleset_id in args.rulesets:
            for players in args.players:
                this, base = (per_games(root, ruleset_id, players, args.games)
                              for root in trees.values())
                n = args.games
                print(f"{ruleset_id:<12}{players:>3}{f'{this.days}/{base.days}':>9}"
                      f"{pair(this.cycles / n, base.cycles / n):>16}"
                      f"{pair(this.cycles / this.days, base.cycles / base.days):>16}"
                      f"{base.cycles / this.cycles:>11.3f}"
                      f"{(base.cycles / base.days) / (this.cycles / this.days):>10.3f}"
                      f"{pair(this.instructions / n, base.instructions / n):>16}", flush=True)


if __name__ == "__main__":
    main()
