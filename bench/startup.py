"""Start-up benchmark: how long `nightfall --help` takes in a fresh process, this checkout
beside f94fd2b (the last commit before the first redesign: 0.24 s there, 0.70 s before issue 28).

Each figure is the median of N runs, each a new interpreter; the two checkouts take turns so a
busy machine slows both alike, and the processor time each run used is shown beside its wall
time (on a loaded machine the wall time grows, the processor time hardly). Both checkouts are
started the same way (`python -c` importing `core.cli` from the checkout, with this
virtualenv's packages), and the installed `nightfall` script is timed as well. The old commit
is checked out in a temporary detached worktree, removed again afterwards; without git or that
commit only this checkout is shown. Prints figures only (speed is never asserted in tests;
tests/unit/test_startup.py checks the import graph instead).
Run with `make bench` or `python bench/startup.py [--runs N] [--baseline COMMIT]`.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "f94fd2b"
LAUNCH = "import sys; sys.argv[0] = 'nightfall'; from core.cli import main; main()"


Run = tuple[float, float]  # wall seconds, processor seconds (user and system)


def seconds(command: list[str], cwd: Path) -> Run:
    """Wall and processor time of one run of `command` in a fresh process, its output
    discarded."""
    env = dict(os.environ, PYTHONPATH=str(cwd))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def help_command() -> list[str]:
    return [sys.executable, "-c", LAUNCH, "--help"]


@contextmanager
def checkout(commit: str) -> Iterator[Path | None]:
    """A detached worktree of `commit` in a temporary directory (None if git cannot make one)."""
    parent = Path(tempfile.mkdtemp(prefix="nightfall-startup-"))
    tree = parent / commit
    made = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                           str(tree), commit], capture_output=True, text=True)
    try:
        yield tree if made.returncode == 0 else None
    finally:
        if made.returncode == 0:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                           capture_output=True)
        shutil.rmtree(parent, ignore_errors=True)


def head() -> str:
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True)
    return found.stdout.strip() or "this checkout"


def line(label: str, runs: list[Run]) -> str:
    walls = [wall for wall, _ in runs]
    cpu = statistics.median(used for _, used in runs)
    return (f"{label:<30}{statistics.median(walls):>9.3f} s{min(walls):>9.3f} s"
            f"{cpu:>9.3f} s")


def median_wall(runs: list[Run]) -> float:
    return statistics.median(wall for wall, _ in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--baseline", default=BASELINE)
    args = parser.parse_args()
    script = Path(sys.executable).with_name("nightfall")
    with checkout(args.baseline) as old:
        ours: list[Run] = []
        theirs: list[Run] = []
        installed: list[Run] = []
        seconds(help_command(), ROOT)  # (compiles this checkout's bytecode once)
        if old is not None:
            seconds(help_command(), old)
        for _ in range(args.runs):
            ours.append(seconds(help_command(), ROOT))
            if old is not None:
                theirs.append(seconds(help_command(), old))
            if script.exists():
                installed.append(seconds([str(script), "--help"], ROOT))
    print(f"nightfall --help, {args.runs} fresh processes each:")
    print(f"{'':<30}{'median':>11}{'best':>11}{'cpu':>11}")
    print(line(head(), ours))
    if theirs:
        print(line(args.baseline, theirs))
        print(f"{'ratio (this / ' + args.baseline + ')':<30}"
              f"{median_wall(ours) / median_wall(theirs):>9.2f}")
    else:
        print(f"{args.baseline}: no worktree could be made (not in this clone's history?)")
    if installed:
        print(line("the installed `nightfall`", installed))


if __name__ == "__main__":
    main()
