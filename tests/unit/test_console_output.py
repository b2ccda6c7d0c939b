"""The console's edges a host meets first (issue 32): `nightfall play | head` ends at once and
quietly, with the script still open (a terminal nobody types into); `nightfall demo | head`
too; the demo has a name for every seat of the largest table, and the message benchmark asks
for no more players than that."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

from adapters.console.demo import NAMES
from core.engine.registry import available, load_ruleset

NIGHTFALL = str(Path(sys.executable).parent / "nightfall")
ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_seats_the_largest_table_and_the_benchmark_fits() -> None:
    assert len(set(NAMES)) == len(NAMES)
    assert len(NAMES) >= max(load_ruleset(r).max_players for r in available())
    spec = importlib.util.spec_from_file_location("bench_messages", ROOT / "bench/messages.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for ruleset, players in bench.CASES:
        assert load_ruleset(ruleset).min_players <= players <= len(NAMES)


def test_play_ends_quietly_when_its_reader_goes(tmp_path: Path) -> None:
    """stdin stays open and silent; stdout's reader closes after the first line."""
    proc = subprocess.Popen([NIGHTFALL, "play", "--db", f"sqlite://{tmp_path / 'p.sqlite3'}"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write("Ann: /newgame changelings\nBob: /join\n")
    proc.stdin.flush()
    first = proc.stdout.readline()
    assert first.startswith("[group] ")
    proc.stdout.close()  # `| head -1` has what it wanted
    began = time.monotonic()
    try:
        code = proc.wait(timeout=30)
    finally:
        proc.kill()
    assert code == 0
    assert time.monotonic() - began < 10
    assert proc.stderr.read() == ""
    proc.stdin.close()


def test_demo_ends_quietly_when_its_reader_goes() -> None:
    proc = subprocess.Popen([NIGHTFALL, "demo", "--seed", "3"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith("[group] ")
    proc.stdout.close()
    try:
        code = proc.wait(timeout=30)
    finally:
        proc.kill()
    assert code == 0
    assert proc.stderr.read() == ""
