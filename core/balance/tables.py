"""The precomputed tables shipped with each rule set (`rulesets/<id>/balance_table.json`):
win rates of the default deal and of its legal neighbours at every player count and skill
preset, so that the lobby answers at once. A table is versioned by a fingerprint of the
simulated games' behaviour (`behaviour.py`): `tools/balance_tables.py` regenerates it, and a
table whose fingerprint differs is still read (better a slightly old number than none) but
marked stale, which the CLI says."""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from core.engine.registry import load_ruleset

from .behaviour import behaviour_print
from .estimate import Estimate
from .presets import ORDERED, Assumed, Preset

FILE = "balance_table.json"
FORMAT = 1


def ruleset_dir(ruleset_id: str) -> Path:
    """The rule set's package directory (where its table is shipped)."""
    module = sys.modules[type(load_ruleset(ruleset_id)).__module__]
    return Path(str(module.__file__)).parent


def fingerprint(ruleset_id: str) -> str:
    """What the table's numbers depend on: how the rule set's simulated games are played."""
    return behaviour_print(ruleset_id)


@dataclass(frozen=True, slots=True)
class Cell:
    """One setup at one preset: its estimate, and whether it is the rule set's deal."""

    players: int
    setup: str  # `Setup.key()`
    preset: Preset
    estimate: Estimate
    default: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "setup": self.setup, "skill": self.preset.value,
                "default": self.default, "games": self.estimate.games,
                "wins": dict(sorted(self.estimate.wins.items())),
                "days": round(self.estimate.mean_days, 2)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Cell:
        return cls(int(data["players"]), str(data["setup"]), Preset(data["skill"]),
                   Estimate(int(data["games"]), {str(k): int(v) for k, v in
                                                 data["wins"].items()}, float(data["days"])),
                   bool(data.get("default")))


@dataclass
class Table:
    """A rule set's table: its cells by (setup key, preset)."""

    ruleset: str
    fingerprint: str = ""
    agent_version: str = ""
    first_games: int = 0  # the games each cell was started with (sequential stopping adds)
    cells: dict[tuple[str, Preset], Cell] = field(default_factory=dict)

    def get(self, setup_key: str, preset: Preset) -> Estimate | None:
        cell = self.cells.get((setup_key, preset))
        return None if cell is None else cell.estimate

    def at(self, setup_key: str, skill: Assumed) -> Estimate | None:
        """The estimate at a preset, or at a skill between two presets interpolated linearly
        from their cells (below the lowest preset or above the highest, that preset's own:
        the tables hold no games beyond them). None where a cell it needs is missing."""
        if isinstance(skill, Preset):
            return self.get(setup_key, skill)
        r = min(max(skill.r, ORDERED[0].r), ORDERED[-1].r)
        low, high = next((a, b) for a, b in itertools.pairwise(ORDERED) if r <= b.r)
        below, above = self.get(setup_key, low), self.get(setup_key, high)
        if below is None or above is None:
            return None
        return between(below, above, (r - low.r) / (high.r - low.r))

    def add(self, cell: Cell) -> None:
        self.cells[(cell.setup, cell.preset)] = cell

    def stale(self) -> bool:
        return self.fingerprint != fingerprint(self.ruleset)

    def games(self) -> int:
        """Every game behind the table's cells."""
        return sum(cell.estimate.games for cell in self.cells.values())

    def __iter__(self) -> Iterator[Cell]:
        return iter(sorted(self.cells.values(),
                           key=lambda c: (c.players, not c.default, c.setup, c.preset.r)))

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "ruleset": self.ruleset, "fingerprint": self.fingerprint,
                "agent_version": self.agent_version, "first_games": self.first_games,
                "cells": [c.to_json() for c in self]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        table = cls(str(data["ruleset"]), str(data["fingerprint"]),
                    str(data["agent_version"]), int(data.get("first_games", 0)))
        for cell in data["cells"]:
            table.add(Cell.from_json(cell))
        return table


def between(below: Estimate, above: Estimate, weight: float) -> Estimate:
    """Two cells' rates mixed linearly (`weight` 0: `below`, 1: `above`), counted as the
    fewer games of the two: a mix of two independent estimates is no less certain than the
    less certain one, so its margins are honest, if a little wide."""
    if weight <= 0.0 or weight >= 1.0:
        return below if weight <= 0.0 else above
    games = min(below.games, above.games)
    sides = sorted(set(below.wins) | set(above.wins))
    wins = {s: round(games * ((1 - weight) * below.rate(s) + weight * above.rate(s)))
            for s in sides}
    return Estimate(games, wins, (1 - weight) * below.mean_days + weight * above.mean_days)


def table_path(ruleset_id: str) -> Path:
    return ruleset_dir(ruleset_id) / FILE


@cache
def shipped(ruleset_id: str) -> Table:
    """The rule set's shipped table, read once (an empty one if it ships none)."""
    path = table_path(ruleset_id)
    return read(path) if path.exists() else Table(ruleset_id)


def read(path: Path) -> Table:
    return Table.from_json(json.loads(path.read_text(encoding="utf-8")))


def write(table: Table, path: Path) -> None:
    """The table as JSON, one cell a line (a regeneration's diff stays readable)."""
    data = table.to_json()
    cells = data.pop("cells")
    head = json.dumps(data, ensure_ascii=False)[:-1]
    lines = ",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in cells)
    path.write_text(f'{head}, "cells": [\n{lines}\n]}}\n', encoding="utf-8")
