"""Reading a package's imports from its source, for the tests that hold the import rules
(test_import_cycles.py: no cycles; test_service_layers.py: no import up a layer). Every import
counts, wherever it stands: at a module's top, inside a function, under `TYPE_CHECKING`."""

from __future__ import annotations

import ast
from pathlib import Path

from .conftest import ROOT


def modules_of(package: str) -> dict[str, Path]:
    """Every module of `package` (a folder under the repository's root, dotted like
    "core.service") by its dotted name, a package by its own name; generated migrations left
    out."""
    modules = {}
    for path in (ROOT / package.replace(".", "/")).rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if "migrations" in parts:
            continue
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imported(name: str, is_package: bool, source: str) -> set[str]:
    """Every module (or module attribute) the source of module `name` imports, dotted and
    absolute, including `from pkg import module`."""
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


def imports_of(name: str, path: Path) -> set[str]:
    """What the module `name` at `path` imports (see `imported`)."""
    return imported(name, path.name == "__init__.py", path.read_text(encoding="utf-8"))
