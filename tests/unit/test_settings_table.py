"""The settings page's table of timed windows (docs/settings.md) is the one the rule sets' data
gives."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_table_of_windows_is_generated_from_the_rule_sets():
    spec = importlib.util.spec_from_file_location("settings_table",
                                                  ROOT / "tools" / "settings_table.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    readme = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert tool.readme_with_table(readme) == readme, \
        "run .venv/bin/python tools/settings_table.py --write"
    assert "| changelings | vote (`vote`) | 4 minutes | 19:30 |" in readme
