"""The town's free vote, shared by every rule set's simulated players: with the table's read
skill r it lands on a hidden enemy, else on a uniformly drawn player nobody has cleared
(research: balance.md §3.3, one calibrated "read" for everything talk would tell); and the
day's shared coin that makes everybody who sees the same suspects name the same one."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence

from core.engine.ids import PlayerId


def free_focus(rng: random.Random, living: Sequence[PlayerId], theory: bool, r: float,
               cleared: Callable[[], Collection[PlayerId]],
               enemies: Callable[[], Collection[PlayerId]]) -> PlayerId | None:
    """The table's free bandwagon. Information off (`theory`): anybody living. `cleared`
    and `enemies` are asked only when needed (the enemies are the read oracle: a hidden
    fact an agent may use only with probability r)."""
    if not living:
        return None
    if theory:
        return rng.choice(living)
    clear = cleared()
    candidates = [pid for pid in living if pid not in clear] or list(living)
    if r and rng.random() < r:
        found = [pid for pid in enemies() if pid in candidates]
        if found:
            return rng.choice(found)
    return rng.choice(candidates)


def pick(options: Sequence[PlayerId], coin: float) -> PlayerId:
    """One of several, the same for everybody who sees the same options (the table's shared
    coin of the day: the bandwagon everyone talked into)."""
    return options[int(coin * len(options)) % len(options)]
