"""Every scenario file under tests/scenarios is a rule test: each must pass."""

from __future__ import annotations

import pytest

from core.scenario import run_file, scenario_files

from .conftest import SCENARIOS

FILES = sorted(scenario_files([str(SCENARIOS)]))


@pytest.mark.parametrize("path", FILES,
                         ids=[str(p.relative_to(SCENARIOS).with_suffix("")) for p in FILES])
def test_scenario(path):
    result = run_file(path)
    assert result.passed, result.reason


def test_every_changelings_rule_id_is_covered():
    """Each CH-… id of the rules page is named by a scenario file (or, for the deal, which
    scenario files fix by hand, by a unit test)."""
    import re

    from .conftest import ROOT

    rules = (ROOT.parent / "shared" / "rules" / "changelings.md")
    if not rules.exists():
        pytest.skip("the rules page is not beside this checkout")
    ids = set(re.findall(r"CH-[A-Z]+", rules.read_text(encoding="utf-8")))
    sources = [*(SCENARIOS / "changelings").glob("*.yaml"), *(ROOT / "tests" / "unit").glob("*.py")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    missing = sorted(i for i in ids if i not in text)
    assert not missing, f"rule ids without a scenario: {missing}"
