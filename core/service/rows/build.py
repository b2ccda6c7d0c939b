"""Which code decides a game: a fingerprint of the engine's and the rule set's sources.

A stored snapshot is checked against the replayed log on every load. With the same code a
difference means corruption and the game must stop; after an upgrade it only means the rules'
code changed, and the log (the commands players gave) is the truth to go on from.
"""

from __future__ import annotations

import hashlib
import inspect
from functools import cache
from pathlib import Path
from typing import Any

import core.engine
from core.engine.rules import Rules

ENGINE = Path(core.engine.__file__).resolve().parent


def build_of(ruleset: Rules[Any]) -> str:
    """The fingerprint of the engine and of the package that defines this rule set (read
    once per rule set and process: every applied command stores it)."""
    return _build_of(type(ruleset))


@cache
def _build_of(kind: type) -> str:
    digest = hashlib.sha256()
    for folder in (ENGINE, Path(inspect.getfile(kind)).resolve().parent):
        for source in sorted(folder.rglob("*.py")):
            digest.update(source.relative_to(folder).as_posix().encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:16]
