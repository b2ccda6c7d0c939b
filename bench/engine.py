"""Engine benchmark: complete random games per second, per rule set and table size, side by side
with the floor (commit f94fd2b, the engine before the first redesign).

Prints figures only (speed is never asserted in tests). Each code base plays in a worker process
of its own (the floor's tree extracted with `git archive`, put first on the worker's path), and
the rounds are interleaved — one round of this tree, then the same round of the floor — so that
the shared machine's noise hits both alike. The ratio is this tree's games per second over the
floor's (median of the per-round ratios); at least 1.0 is the promise. Beside it, each tree's mean
days per game and the ratio per day: the two trees do not play the same games from one seed
(flavour bags draw from the game's generator, rules were fixed since the floor: alchemists at 12
last 4.75 days a game against the floor's 4.59 over 3,000 games), so per day is the fairer
figure where their lengths differ. Without git or the floor's commit, the floor is skipped and
said so.
Run with `make bench` or `python bench/engine.py [--games N] [--rounds R]`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

FLOOR = "f94fd2b"
RULESETS = ("alchemists", "changelings")
HERE = Path(__file__).resolve().parent.parent

# What each worker runs: only what both code bases have (a rule set's `RULESET`, `simulate`).
# Games are timed in the worker's own CPU time: on a shared machine the wall clock also counts
# the time other processes held the core.
WORKER = """
import importlib, json, sys, time
from core.simulate import simulate
for line in sys.stdin:
    ruleset_id, players, games, seed = json.loads(line)
    ruleset = importlib.import_module("rulesets." + ruleset_id).RULESET
    start = time.process_time()
    report = simulate(ruleset, players, games, seed=seed)
    seconds = time.process_time() - start
    print(json.dumps([games / seconds, report.days_total / report.games]), flush=True)
"""


class Worker:
    """A process playing games with the code base at `root`."""

    def __init__(self, root: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.process = subprocess.Popen([sys.executable, "-c", WORKER], cwd=root, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def play(self, ruleset_id: str, players: int, games: int, seed: int) -> tuple[float, float]:
        stdin: IO[str] = self.process.stdin  # type: ignore[assignment]
        stdout: IO[str] = self.process.stdout  # type: ignore[assignment]
        stdin.write(json.dumps([ruleset_id, players, games, seed]) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise RuntimeError("a benchmark worker stopped")
        rate, days = json.loads(line)
        return float(rate), float(days)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def extract_floor(into: Path, commit: str = FLOOR) -> str | None:
    """Put the floor's (or another commit's) `core` and `rulesets` into `into`; the reason why
    not, if it fails."""
    try:
        archive = subprocess.run(["git", "-C", str(HERE), "archive", commit, "core", "rulesets"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError) as err:
        detail = err.stderr.decode(errors="replace").strip() if isinstance(
            err, subprocess.CalledProcessError) and err.stderr else str(err)
        return detail or "git archive failed"
    return None


def measure(workers: dict[str, Worker], args: Any) -> None:
    names = list(workers)
    pair = len(names) == 2
    header = f"{'ruleset':<13}{'players':>8}"
    header += "".join(f"{name + ' g/s':>14}{'days':>6}" for name in names)
    print(header + (f"{'ratio':>8}{'per day':>9}" if pair else ""), flush=True)
    for ruleset_id in RULESETS:
        for players in args.players:
            rates: dict[str, list[float]] = {name: [] for name in names}
            days: dict[str, list[float]] = {name: [] for name in names}
            for round_no in range(args.rounds):
                seed = round_no * args.games
                # alternate which goes first, so neither always follows the other
                order = names if round_no % 2 == 0 else names[::-1]
                for name in order:
                    rate, played = workers[name].play(ruleset_id, players, args.games, seed)
                    rates[name].append(rate)
                    days[name].append(played)
            line = f"{ruleset_id:<13}{players:>8}"
            line += "".join(f"{statistics.median(rates[name]):>14.0f}"
                            f"{statistics.fmean(days[name]):>6.2f}" for name in names)
            if pair:
                ratios = [a / b for a, b in zip(rates[names[0]], rates[names[1]], strict=True)]
                # per day: the trees play different games from one seed (flavour bags draw
                # from the game's generator; rules fixed since the floor), so a tree whose
                # games last longer is slower per game for that alone
                per_day = [a * da / (b * db) for a, b, da, db in zip(
                    rates[names[0]], rates[names[1]], days[names[0]], days[names[1]],
                    strict=True)]
                line += f"{statistics.median(ratios):>8.2f}{statistics.median(per_day):>9.2f}"
            print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--players", type=int, nargs="*", default=[12, 15])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nightfall-floor-") as tmp:
        workers = {"this": Worker(HERE)}
        why_not = extract_floor(Path(tmp))
        if why_not is None:
            workers[FLOOR] = Worker(Path(tmp))
        else:
            print(f"floor {FLOOR} skipped: {why_not}")
        try:
            measure(workers, args)
        finally:
            for worker in workers.values():
                worker.close()


if __name__ == "__main__":
    main()
