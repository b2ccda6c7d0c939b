"""Playing a whole game through a platform harness, the same way on every platform: each
round the players do what is offered; when nobody can do anything more, the clock runs to the
next deadline (votes and night actions not given expire)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from core.engine.registry import load_ruleset
from core.storage.models import GameRecord


def ruleset_longest_window(ruleset_id: str) -> float:
    """Seconds that surely pass any window's deadline in the quick pace."""
    quick = load_ruleset(ruleset_id).pace.get("quick", {})
    seconds = [float(v) for v in quick.values() if isinstance(v, int | float)]
    return max(seconds, default=600.0) + 60.0


async def play_until_over(table: Any, play_round: Callable[[Any, random.Random], Awaitable[bool]],
                          rng: random.Random, max_rounds: int = 120,
                          after_round: Callable[[GameRecord], Awaitable[None]] | None = None,
                          ) -> GameRecord:
    """`table` is a platform harness's table (settle, game_row, let_time_pass); `after_round`
    may check something whenever everything has settled."""
    for _ in range(max_rounds):
        await table.settle()
        row = await table.game_row()
        assert row is not None
        if after_round is not None:
            await after_round(row)
        if row.status != "running":
            return row
        if not await play_round(table, rng):
            await table.let_time_pass(ruleset_longest_window(row.ruleset))
    raise AssertionError("the game did not end")
