"""Issue 28: a role's per-player facts are typed slots (`core/engine/role_state.py`), each
declared once by the module that owns it; only the slot touches `Player.counters` by key, and
what it stores is what the string keys stored before (snapshots and digests unchanged)."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

from core.engine.ids import PlayerId, RoleId
from core.engine.role_state import Slot
from core.engine.state import Player

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("core", "adapters", "rulesets", "tools", "bench", "tests")
SLOT_MODULE = ROOT / "core" / "engine" / "role_state.py"


def player() -> Player:
    return Player(pid=PlayerId("p1"), name="Ann", seat=0, role=RoleId("pony"))


def test_an_unset_slot_reads_its_default_and_stores_nothing() -> None:
    p = player()
    used: Slot[bool] = Slot("used", False)
    since: Slot[int] = Slot("since", 1 << 30)
    assert used.get(p) is False and since.get(p) == 1 << 30
    assert p.counters == {}


def test_a_slot_stores_exactly_what_it_is_given() -> None:
    """A falsy value is stored as such: a snapshot tells it from an absent one."""
    p = player()
    last: Slot[list[PlayerId | int] | None] = Slot("last", None)
    used: Slot[bool] = Slot("used", False)
    last.set(p, None)
    used.set(p, True)
    assert p.counters == {"last": None, "used": True}
    assert list(p.counters) == ["last", "used"]  # in the order written
    last.set(p, [PlayerId("p2"), 3])
    assert last.get(p) == ["p2", 3] and list(p.counters) == ["last", "used"]


def test_pop_takes_the_fact_out() -> None:
    p = player()
    news: Slot[tuple[PlayerId, bool] | None] = Slot("news", None)
    assert news.pop(p) is None and p.counters == {}
    news.set(p, (PlayerId("p2"), True))
    assert news.pop(p) == ("p2", True) and p.counters == {}


def counters_by_key(path: Path) -> list[str]:
    """Each place in a file that reads or writes `counters` by key or calls a method of it
    (`x.counters[...]`, `x.counters.get(...)`, `.update`, `.pop` ...), as `path:line`; testing
    whether it is empty, comparing or passing it along is fine."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Subscript, ast.Attribute)):
            inner = node.value
            if isinstance(inner, ast.Attribute) and inner.attr == "counters":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_only_the_slot_module_names_a_key_of_counters() -> None:
    files = [f for top in SCANNED for f in (ROOT / top).rglob("*.py") if f != SLOT_MODULE]
    assert len(files) > 100
    assert [hit for f in files for hit in counters_by_key(f)] == []
    assert counters_by_key(SLOT_MODULE)  # the check does see an access by key


@pytest.mark.parametrize("ruleset", ["changelings", "alchemists"])
def test_each_key_is_declared_once_in_a_rule_set(ruleset: str) -> None:
    """Two slots with one key would share (and overwrite) one fact."""
    importlib.import_module(f"rulesets.{ruleset}")
    prefix = f"rulesets.{ruleset}."
    slots = {id(value): value for name, module in list(sys.modules.items())
             if name.startswith(prefix) for value in vars(module).values()
             if isinstance(value, Slot)}
    keys = sorted(slot.key for slot in slots.values())
    assert keys and len(keys) == len(set(keys)), keys
