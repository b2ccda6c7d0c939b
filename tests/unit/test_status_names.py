"""Player statuses are declared once, as StrEnums (the core's `Status`, each rule set's own
`Status`); `Player.statuses` holds their values, and the hottest checks write a value as a
literal for speed (`core/engine/statuses.py` says why). This keeps those literals honest: every
string added to, removed from or looked up in a `statuses` set anywhere in the code is the value
of a declared status of the core or of that rule set."""

from __future__ import annotations

import ast
from pathlib import Path

from core.engine.statuses import Status as CoreStatus
from rulesets.alchemists.common import Status as AlchemistsStatus
from rulesets.changelings.vocabulary import Status as ChangelingsStatus

ROOT = Path(__file__).resolve().parents[2]
CORE = {status.value for status in CoreStatus}
DECLARED = {
    "core": CORE,
    "adapters": CORE,
    "rulesets/changelings": CORE | {status.value for status in ChangelingsStatus},
    "rulesets/alchemists": CORE | {status.value for status in AlchemistsStatus},
}


def _is_statuses(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "statuses"


def status_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, text) of each string literal used as a status: `"x" in p.statuses`,
    `p.statuses.add("x")` (and `discard`, `remove`)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and \
                isinstance(node.left.value, str):
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, (ast.In, ast.NotIn)) and _is_statuses(right):
                    found.append((node.lineno, node.left.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("add", "discard", "remove") and \
                _is_statuses(node.func.value):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.append((node.lineno, arg.value))
    return found


def test_every_status_written_as_a_literal_is_declared() -> None:
    undeclared = []
    seen = 0
    for package, declared in DECLARED.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            for line, text in status_literals(ast.parse(path.read_text(), str(path))):
                seen += 1
                if text not in declared:
                    undeclared.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    assert not undeclared, "statuses not declared in a Status enum:\n" + "\n".join(undeclared)
    assert seen > 5  # the hottest changelings checks write their statuses as literals


def test_a_misspelt_status_is_caught() -> None:
    tree = ast.parse("if 'mayr' in p.statuses:\n    p.statuses.add('voicless')\n")
    assert [text for _, text in status_literals(tree)] == ["mayr", "voicless"]
