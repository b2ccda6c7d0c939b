"""The settings page's table of timed windows (docs/settings.md), generated from the rule sets'
`WindowSpec`s (so the docs say what the code does): each window, its defaults at both paces and
its bounds.

    .venv/bin/python tools/settings_table.py           # print the table
    .venv/bin/python tools/settings_table.py --write   # put it into docs/settings.md

tests/unit/test_settings_table.py fails when that table is out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.engine.registry import available, load_ruleset  # noqa: E402
from core.engine.windows import Preset  # noqa: E402
from core.spoken import span_words  # noqa: E402

BEGIN, END = "<!-- timers:begin -->", "<!-- timers:end -->"
PAGE = ROOT / "docs" / "settings.md"


def shown(preset: Preset) -> str:
    if isinstance(preset, tuple):
        return f"{preset[0]}, at least {span_words(int(preset[1]), 'en')}"
    if isinstance(preset, str):
        return preset
    return span_words(int(preset), "en")


def table() -> str:
    rows = ["| rule set | window (`/timer` id) | quick pace | forum pace | bounds |",
            "|---|---|---|---|---|"]
    for ruleset_id in ("changelings", "alchemists"):
        if ruleset_id not in available():
            continue
        for spec in load_ruleset(ruleset_id).timed_windows():
            bounds = (f"{span_words(int(spec.bounds.shortest), 'en')} to "
                      f"{span_words(int(spec.bounds.longest), 'en')}")
            rows.append(f"| {ruleset_id} | {spec.label} (`{spec.id}`) | {shown(spec.quick)} | "
                        f"{shown(spec.forum)} | {bounds} |")
    return "\n".join(rows)


def readme_with_table(text: str) -> str:
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{table()}\n{END}{tail}"


if __name__ == "__main__":
    if "--write" in sys.argv:
        PAGE.write_text(readme_with_table(PAGE.read_text(encoding="utf-8")),
                          encoding="utf-8")
    else:
        print(table())
