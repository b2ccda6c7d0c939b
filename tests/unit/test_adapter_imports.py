"""Adapters keep their state through the `AdapterStore` the service hands them: no module
under adapters/ imports the storage layer (`core.storage`: its models or its database), and
the name limit they cut to is the one the storage keeps."""

from __future__ import annotations

import ast
from pathlib import Path

from core.service import NAME_LENGTH
from core.storage.models import Identity

from ..conftest import ROOT


def storage_imports(path: Path) -> list[str]:
    """Every import of `core.storage` (or a module in it) in a file, as written."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        found += [name for name in names if name == "core.storage"
                  or name.startswith("core.storage.")]
    return found


def test_the_walk_sees_a_storage_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import json\nfrom core import storage\nfrom core.storage.db import open_db\n"
                      "def f():\n    import core.storage.models\n")
    assert storage_imports(sample) == ["core.storage", "core.storage.db",
                                       "core.storage.db.open_db", "core.storage.models"]


def test_no_adapter_imports_the_storage():
    offenders = {str(path.relative_to(ROOT)): storage_imports(path)
                 for path in sorted((ROOT / "adapters").rglob("*.py"))
                 if storage_imports(path)}
    assert offenders == {}


def test_names_are_cut_to_what_the_storage_keeps():
    assert Identity._meta.fields_map["name"].max_length == NAME_LENGTH
