"""Shared helpers for the test suite."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"


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
