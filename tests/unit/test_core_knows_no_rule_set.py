"""Rule sets are plugins: the story of a game (`core/story`) and the core's spoken values
(`core/spoken.py`) name no role, side, cause, window stage or event of any rule set, neither
as an identifier nor as a word of their texts. What a rule set adds to them (its bonds and
lines, its stages' and option values' names) comes from the rule set itself."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from core.engine.events import EVENT_KINDS
from core.engine.registry import available, load_ruleset

from ..conftest import ROOT

CORE_MODULES = [*sorted((ROOT / "core" / "story").glob("*.py")), ROOT / "core" / "spoken.py"]
# the engine's own: stages it opens or names (a pace's "night" is a single-stage night's
# window, named by the phase's kind), events it records
ENGINE_STAGES = frozenset({"", "setup", "day", "night"})
ENGINE_EVENTS = frozenset({"phase", "closed", "closed_early", "voted", "counted", "removed",
                           "left", "learned", "host", "ended"})


def rule_set_names() -> tuple[set[str], set[str]]:
    """Every rule set's identifiers (roles, sides, causes, stages, events) and the words its
    roles, sides and events are told by (lower case; a stage's or cause's id is a word of
    everyday English, "vote", "killed", and only counts as an identifier)."""
    ids: set[str] = set()
    words: set[str] = set()
    for ruleset_id in available():
        ruleset = load_ruleset(ruleset_id)
        ids |= set(ruleset.roles) | set(ruleset.sides) | set(ruleset.causes)
        ids |= {stage for pace in ruleset.pace.values() for stage in pace} - ENGINE_STAGES
        for kind in ("role", "side"):
            words |= {re.sub(r"^the ", "", name.lower())
                      for name in ruleset.vocabulary.get(kind, {}).values()}
    events = set(EVENT_KINDS) - ENGINE_EVENTS
    return ids | events, words | {kind.replace("_", " ") for kind in events}


def string_literals(path: Path) -> list[str]:
    """The module's strings, its docstrings aside (they may say what a rule set adds)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in docstrings]


def test_the_story_and_the_spoken_values_name_nothing_of_a_rule_set() -> None:
    ids, words = rule_set_names()
    found = {}
    for path in CORE_MODULES:
        for literal in string_literals(path):
            text = literal.lower()
            named = {i for i in ids if literal == i} | {
                w for w in words if re.search(rf"(?<![\w{{]){re.escape(w)}(?![\w}}])", text)}
            if named:
                found[f"{path.relative_to(ROOT)}: {literal[:60]!r}"] = sorted(named)
    assert not found


def test_the_check_would_see_what_the_story_once_named() -> None:
    ids, words = rule_set_names()
    assert {"banished", "executed", "election", "dusk", "lovers", "mayor", "succession",
            "stone", "father"} <= ids
    assert {"father", "xing alchemist", "mayor", "lovers"} <= words
