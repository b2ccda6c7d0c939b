"""Host options given as `name=value` text (the CLI's `--option`), read to the type of the rule
set's default, so a simulated table is set up exactly as `/option` would set it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.engine.ruleset import Ruleset, SetupError

_ON, _OFF = frozenset({"on", "true", "yes", "1"}), frozenset({"off", "false", "no", "0"})


def parse_options(ruleset: Ruleset, pairs: Iterable[str]) -> dict[str, Any]:
    """`["changelings=3", "random_lovers=off"]` → `{"changelings": 3, "random_lovers": False}`;
    raises `SetupError` for an unknown option or a value of the wrong kind."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or name not in ruleset.default_options:
            raise SetupError("Unknown option: {option}.", option=name or pair)
        default = ruleset.default_options[name]
        value: Any = raw
        if isinstance(default, bool):
            if raw.lower() not in _ON | _OFF:
                raise SetupError("Option {option} has a wrong value.", option=name)
            value = raw.lower() in _ON
        elif isinstance(default, int):
            if not raw.isdigit():
                raise SetupError("Option {option} has a wrong value.", option=name)
            value = int(raw)
        options[name] = value
    ruleset.check_options(options)
    return options
