"""The engine is pure: `core/engine` and `rulesets/` import no adapter, platform library,
network, clock, or asyncio (DESIGN.md, property 1)."""

from __future__ import annotations

import ast
from pathlib import Path

from ..conftest import ROOT

FORBIDDEN = {"adapters", "telegram", "nio", "asyncio", "socket", "http", "urllib", "requests",
             "aiohttp", "time", "datetime", "tortoise", "threading", "subprocess", "os"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_engine_and_rulesets_import_nothing_impure():
    offenders = {}
    for folder in (ROOT / "core" / "engine", ROOT / "rulesets"):
        for path in folder.rglob("*.py"):
            bad = imported_modules(path) & FORBIDDEN
            if bad:
                offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert not offenders
