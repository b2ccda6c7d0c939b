"""Shared helpers for the test suite."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests import fresh_schema

# Property tests judge the code, not the machine: on a loaded CI machine (two cores, many
# workers) a slow example or slow data generation is no failure. The example counts stay
# each test's own.
settings.register_profile("nightfall", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("nightfall")

# A new database is filled from a template migrated once per test process (tests/fresh_schema.py)
fresh_schema.install()

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"

# The slow tiers (registered in pyproject.toml), each found from what a test uses, so that no
# new test is left out of its tier: `pytest -m "not slow"` runs the fast rest.
SLOW_TIERS = ("synapse", "node", "kill", "outage", "browser", "container", "postgres")


def tiers(item: pytest.Item) -> set[str]:
    """The slow tiers a collected test belongs to."""
    path = Path(str(item.path)).relative_to(ROOT / "tests")
    found = set()
    if "synapse" in getattr(item, "fixturenames", ()):
        found.add("synapse")  # a real homeserver, started once per worker
    if "js_players" in getattr(item, "fixturenames", ()):
        found.add("node")  # matrix-js-sdk players, one Node process each
    if path.name == "test_crash.py" or "sigkill" in item.name:
        found.add("kill")  # a bot killed with SIGKILL and started again, many times
    if path.parts[0] == "outage" or path.name == "test_outage.py":
        found.add("outage")  # a platform or the database away under a running bot
    if "browser" in path.name:
        found.add("browser")  # headless Chromium
    if path.parts[0] == "deploy":
        found.add("container")  # the image built and run with podman
    params = getattr(getattr(item, "callspec", None), "params", {})
    if params.get("db_url") == "postgres" or hasattr(getattr(item, "module", None), "POSTGRES"):
        found.add("postgres")  # the machine's PostgreSQL (each service test's second run)
    return found


# The order files start in under `pytest -n auto --dist loadfile --no-loadscope-reorder`: the
# longest first, so that no single long file (the image build, a Synapse suite) starts last and
# runs alone while the other worker idles. xdist's own order (most tests first) had put the
# one-test image build at the very end of the run.
LONGEST_FIRST = ("container", "kill", "synapse", "node", "outage", "browser", "postgres")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank: dict[Path, int] = {}
    for item in items:
        found = tiers(item)
        for tier in sorted(found):
            item.add_marker(tier)
        if found:
            item.add_marker("slow")
        first = min((LONGEST_FIRST.index(tier) for tier in found), default=len(LONGEST_FIRST))
        path = Path(str(item.path))
        rank[path] = min(rank.get(path, first), first)
    items.sort(key=lambda item: rank[Path(str(item.path))])  # stable: a file's order is kept


def pytest_sessionfinish(session, exitstatus) -> None:
    """Drop the run's own PostgreSQL database, if the storage tests made one."""
    storage = sys.modules.get("tests.service.conftest")
    if storage is not None:
        asyncio.run(storage.drop_run_database())


def pytest_unconfigure(config) -> None:
    """A leaked non-daemon thread (an unclosed SQLite client, say) would keep the interpreter
    alive forever after the last test and hang CI until its time limit. Name it and fail now."""
    leaked = [t for t in threading.enumerate()
              if t is not threading.main_thread() and t.is_alive() and not t.daemon]
    if leaked:
        sys.stderr.write("tests left threads running: "
                         + ", ".join(t.name for t in leaked) + "\n")
        sys.stderr.flush()
        os._exit(3)
