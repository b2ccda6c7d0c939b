"""Lists and tables from the environment (issue 32, problem 7): the documented `a,b,c` form
works, JSON still does, and a value that is neither is one line naming the variable and the
form it expects, in `check-config` and `run` alike, never a pydantic traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from core.cli import main
from core.config import load_settings
from core.sections import ConfigError

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "nightfall.example.toml"


@pytest.mark.parametrize("value", ["@me:example.org,@you:example.org",
                                   " @me:example.org , @you:example.org,",
                                   '["@me:example.org", "@you:example.org"]'])
def test_a_list_is_read_in_the_comma_form_and_as_json(monkeypatch, value):
    monkeypatch.setenv("NIGHTFALL_MATRIX__ALLOW", value)
    assert load_settings(EXAMPLE).matrix.allow == ["@me:example.org", "@you:example.org"]


def test_one_item_needs_no_comma(monkeypatch):
    monkeypatch.setenv("NIGHTFALL_MATRIX__ALLOW", ":example.org")
    assert load_settings(EXAMPLE).matrix.allow == [":example.org"]


@pytest.mark.parametrize(("variable", "value", "expected"), [
    ("NIGHTFALL_MATRIX__ALLOW", '["@me:example.org"', "a,b,c or a JSON list"),
    ("NIGHTFALL_MATRIX__RATES", "overall=1", "a JSON object"),
    ("NIGHTFALL_MATRIX", "on", "a JSON object"),
])
def test_a_malformed_value_names_the_variable_and_the_form_in_one_line(monkeypatch, variable,
                                                                       value, expected):
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as err:
        load_settings(EXAMPLE)
    assert str(err.value).startswith(f"{variable}: ") and expected in str(err.value)
    assert "\n" not in str(err.value)
    for command in (["check-config", str(EXAMPLE)], ["run", "--config", str(EXAMPLE)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1
        assert variable in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 2  # "configuration:" and the line
