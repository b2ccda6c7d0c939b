"""The scenario runner's `told` facts (../shared/scenarios/FORMAT.md): a role named in running
text (a `role_was` reference, "Ann was the Researcher") is a reference of its own kind, never
counted as the plain `role` fact; a text that tells a role carries the plain fact beside it."""

from __future__ import annotations

import pytest

from core.engine.messages import Ref, WithRole, player, role
from core.scenario_expect import Expectations, ScenarioFailed, ScenarioInvalid, refs
from rulesets.changelings import RULESET as CHANGELINGS


def test_a_running_text_role_is_not_a_plain_role_reference():
    params = {"name": player("p1"), "role": Ref("role_was", "researcher")}
    assert set(refs(params)) == {("player", "p1"), ("role_was", "researcher")}
    assert ("role", "researcher") not in set(refs(params))
    nested = {"names": (player("p1"), WithRole(player("p2"), role("pony")))}
    assert set(refs(nested)) == {("player", "p1"), ("player", "p2"), ("role", "pony")}


class Told(Expectations):
    """Only what `_expect_told` needs: the rule set, the readers' references, the errors."""

    def __init__(self, carried: dict) -> None:
        self.ruleset = CHANGELINGS
        self.told = {"group": set(refs(carried))}
        self._pid = str
        self._invalid = ScenarioInvalid
        self._fail = ScenarioFailed


def test_told_roles_counts_only_plain_role_references():
    running_text = Told({"role": Ref("role_was", "researcher")})
    with pytest.raises(ScenarioFailed):
        running_text._expect_told({"group": {"roles": ["researcher"]}})
    running_text._expect_told({"group": {"not_roles": ["researcher"]}})
    both = Told({"role": Ref("role_was", "researcher"), "revealed": role("researcher")})
    both._expect_told({"group": {"roles": ["researcher"]}})
