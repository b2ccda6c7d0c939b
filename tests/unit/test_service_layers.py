"""The service stands in layers, and no import runs up a layer (core/service/__init__.py):

    ports -> rows -> messages -> telling -> delivery -> games -> commands -> runtime.py

A module may import from its own layer and from any layer below it, never from one above: the
layers below can be read, tested and changed without the ones above. Every import counts, at a
module's top, inside a function, and under `TYPE_CHECKING`: a type-only import is still a
dependency of the reader, and of mypy. The public face, `core/service/__init__.py`, re-exports
the adapter contract and so may import only from `ports`; no module of the service imports
the face (a module in the middle of an import would find it half made).

And no module of `core`, `adapters` or `rulesets` is over 400 lines: a module that grows past
that does more than one job."""

from __future__ import annotations

import ast
from pathlib import Path

from ..conftest import ROOT

SERVICE = "core.service"
LAYERS = ("ports", "rows", "messages", "telling", "delivery", "games", "commands", "runtime")
MAX_LINES = 400


def service_modules() -> dict[str, Path]:
    """Every module of the service by its dotted name (a package by its own name)."""
    modules = {}
    for path in (ROOT / "core" / "service").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imported(name: str, is_package: bool, source: str) -> set[str]:
    """Every module (or module attribute) the source of module `name` imports, dotted and
    absolute, wherever the import stands (top, function, `if TYPE_CHECKING:`)."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def layer_of(module: str) -> str | None:
    """The layer a module of the service belongs to; None for the face and for anything
    outside the service."""
    parts = module.split(".")
    if parts[:2] != SERVICE.split(".") or len(parts) < 3 or parts[2] not in LAYERS:
        return None
    return parts[2]


def upward(name: str, is_package: bool, source: str) -> list[str]:
    """The imports of module `name` that run up a layer, or into the face."""
    own = layer_of(name)
    wrong = set()
    for target in imported(name, is_package, source):
        if target == SERVICE or (target.rpartition(".")[0] == SERVICE
                                 and layer_of(target) is None):
            wrong.add(target)  # the face, or a name it re-exports
            continue
        theirs = layer_of(target)
        if theirs is None:
            continue
        ceiling = "ports" if own is None else own  # the face re-exports the ports only
        if LAYERS.index(theirs) > LAYERS.index(ceiling):
            wrong.add(target)
    return sorted(wrong)


def test_every_layer_exists_and_every_module_has_one() -> None:
    modules = service_modules()
    assert {layer_of(m) for m in modules} - {None} == set(LAYERS)
    assert sorted(m for m in modules if layer_of(m) is None) == [SERVICE]


def test_the_walk_sees_an_upward_import() -> None:
    lower = "core.service.telling.teams"
    assert upward(lower, False, "from ..games.running import Games\n") == [
        "core.service.games.running", "core.service.games.running.Games"]
    assert upward(lower, False, "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                "    from core.service.commands import lobby\n") == [
        "core.service.commands", "core.service.commands.lobby"]
    assert upward(lower, False, "def f():\n    from ..runtime import Runtime\n") == [
        "core.service.runtime", "core.service.runtime.Runtime"]
    assert upward(lower, False, "from core.service import ChatRef\n") == [
        "core.service", "core.service.ChatRef"]
    assert upward(lower, False, "from ..messages import outbox\nfrom . import muting\n"
                                "from core.engine import Game\n") == []
    assert upward(SERVICE, True, "from .rows.unit_of_work import current_work\n") == [
        "core.service.rows.unit_of_work", "core.service.rows.unit_of_work.current_work"]


def test_no_import_runs_up_a_layer() -> None:
    offenders = {}
    for name, path in service_modules().items():
        wrong = upward(name, path.name == "__init__.py", path.read_text(encoding="utf-8"))
        if wrong:
            offenders[name] = wrong
    assert offenders == {}


def test_no_module_is_over_400_lines() -> None:
    too_long = {}
    for folder in ("core", "adapters", "rulesets"):
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue  # generated by `tortoise makemigrations`
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                too_long[str(path.relative_to(ROOT))] = lines
    assert too_long == {}
