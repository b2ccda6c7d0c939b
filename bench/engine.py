"""Engine benchmark: complete random games per second, per rule set and table size, side by side
with the floor (commit f94fd2b, the engine before the first redesign).

Prints figures only (speed is never asserted in tests). Each code base plays in a worker process
of its own (the floor's tree extracted with `git archive`, put first on the worker's path), timed
in the worker's processor time. The games come in blocks (250 games from one seed, six blocks:
1,500 different games); each block is played four times by each tree, interleaved — one tree,
then the other, the order alternating — by a fresh pair of processes, and a block counts with
its best time. On this shared
2-core machine the noise only ever adds time (another process's cache and core, a frequency
step), in bursts that can cost one round 10 %: the best of a few repeats of the same work is
what the code costs, as `timeit` takes the minimum. The ratio is the floor's best time over this
tree's for all blocks (games per second, this over the floor): at least 1.0 is the promise. The
median of the repeats' paired ratios is printed beside it as a check.

Each tree's mean days per game and the ratio per day are printed too: the two trees do not play
the same games from one seed (flavour bags draw from the game's generator, and rules were fixed
since the floor: alchemists at 12 last 4.75 days a game against the floor's 4.59 over 3,000
games), so per day is the fairer figure where their lengths differ. Without git or the floor's
commit, the floor is skipped and said so.
Run with `make bench` or `python bench/engine.py [--games N] [--blocks B] [--repeats R]
[--floor COMMIT]` (another commit in the floor's place: a change measured before and after).
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


def measure(roots: dict[str, Path], args: Any) -> None:
    names = list(roots)
    pair = len(names) == 2
    header = f"{'ruleset':<13}{'players':>8}"
    header += "".join(f"{name + ' g/s':>14}{'days':>6}" for name in names)
    print(header + (f"{'ratio':>8}{'per day':>9}{'median':>8}" if pair else ""), flush=True)
    for ruleset_id in RULESETS:
        for players in args.players:
            # per tree and block: the block's best time over its repeats, and its days
            best: dict[str, list[float]] = {name: [] for name in names}
            days: dict[str, list[float]] = {name: [] for name in names}
            paired: list[float] = []  # each repeat's ratio, for the median beside the best
            for block in range(args.blocks):
                seed = block * args.games
                times: dict[str, list[float]] = {name: [] for name in names}
                # fresh processes for every block: where a process's memory happens to lie
                # moves its speed by a percent or two for as long as it lives, so each block
                # is played by another pair of processes (as pyperf spawns many)
                workers = {name: Worker(root) for name, root in roots.items()}
                for repeat in range(args.repeats):
                    # alternate which goes first, so neither always follows the other
                    order = names if (block + repeat) % 2 == 0 else names[::-1]
                    for name in order:
                        rate, played = workers[name].play(ruleset_id, players, args.games, seed)
                        times[name].append(args.games / rate)
                        if repeat == 0:
                            days[name].append(played * args.games)
                    if pair:
                        paired.append(times[names[1]][-1] / times[names[0]][-1])
                for worker in workers.values():
                    worker.close()
                for name in names:
                    best[name].append(min(times[name]))
            games = args.games * args.blocks
            line = f"{ruleset_id:<13}{players:>8}"
            line += "".join(f"{games / sum(best[name]):>14.0f}{sum(days[name]) / games:>6.2f}"
                            for name in names)
            if pair:
                ratio = sum(best[names[1]]) / sum(best[names[0]])
                # per day: the trees do not play the same games from one seed (see above)
                per_day = ratio * sum(days[names[0]]) / sum(days[names[1]])
                line += f"{ratio:>8.2f}{per_day:>9.2f}{statistics.median(paired):>8.2f}"
            print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=250, help="games in a block")
    parser.add_argument("--blocks", type=int, default=6, help="blocks of other games")
    parser.add_argument("--repeats", type=int, default=4, help="times each block is played")
    parser.add_argument("--players", type=int, nargs="*", default=[12, 15])
    parser.add_argument("--floor", default=FLOOR, help="the commit to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nightfall-floor-") as tmp:
        roots = {"this": HERE}
        why_not = extract_floor(Path(tmp), args.floor)
        if why_not is None:
            roots[args.floor] = Path(tmp)
        else:
            print(f"floor {args.floor} skipped: {why_not}")
        measure(roots, args)


if __name__ == "__main__":
    main()
