"""Which of a rule set's per-action hooks do anything. Every action and vote would otherwise
call an empty one (the alchemists hear no activity, the changelings no votes), so the engine
asks once per rule-set class and skips the empty ones."""

from __future__ import annotations

import dis
from functools import cache


def does_nothing(function: object) -> bool:
    """Whether a Python function's body is empty (a docstring, `pass`, `...`): its code only
    returns None. Read from the bytecode, so a rule set need not declare which hooks it hears."""
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    ops = [(op.opname, op.argval) for op in dis.get_instructions(code)
           if op.opname not in ("RESUME", "NOP")]
    return ops in ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)])


@cache
def hooks_heard(ruleset_class: type) -> tuple[bool, bool]:
    """Whether `on_activity` and `after_vote` of this rule set class do anything: worked out
    once per class (not per game, not per call)."""
    return (not does_nothing(getattr(ruleset_class, "on_activity", None)),
            not does_nothing(getattr(ruleset_class, "after_vote", None)))
