"""`nightfall --help` and the light commands start without the ORM, the platform libraries,
the image library or the service: each command imports those where it runs (issue 28: 0.70 s
to print the help, 0.24 s before the first redesign). An import-graph check in a fresh
interpreter, not a timing (bench/startup.py prints the times)."""

from __future__ import annotations

import json
import subprocess
import sys

from ..conftest import ROOT

# what only `nightfall run`, `play`, `demo` and the admin commands need
HEAVY = ("tortoise", "asyncpg", "telegram", "nio", "PIL", "aiohttp", "pydantic",
         "pydantic_settings", "prometheus_client", "orjson", "core.storage", "core.service.rows",
         "core.service.delivery", "core.service.games", "core.service.commands",
         "core.service.runtime")

RUN = """
import json, sys
sys.argv = ["nightfall", *sys.argv[1:]]
from core.cli import main
try:
    main()
except SystemExit:
    pass
sys.__stderr__.write(json.dumps(sorted(sys.modules)))
"""


def modules_after(*argv: str) -> set[str]:
    """The modules a fresh interpreter holds after `nightfall ARGV...` (its output dropped)."""
    done = subprocess.run([sys.executable, "-c", RUN, *argv], cwd=ROOT, check=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=120)
    return set(json.loads(done.stderr))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_the_help_imports_nothing_heavy():
    modules = modules_after("--help")
    assert "core.cli" in modules and "adapters.console.cli" in modules  # (the plugins' commands)
    assert heavy(modules) == []


def test_a_command_s_help_imports_nothing_heavy():
    assert heavy(modules_after("run", "--help")) == []


def test_simulating_games_needs_no_service():
    modules = modules_after("simulate", "--games", "3", "--players", "8")
    assert "core.simulate" in modules
    assert heavy(modules) == []


def test_the_check_sees_a_heavy_import(tmp_path):
    database = tmp_path / "empty.sqlite3"
    database.touch()
    modules = modules_after("stats", "--db", f"sqlite://{database}")
    assert "tortoise" in heavy(modules)
