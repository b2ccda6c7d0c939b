"""What a shipped table is versioned by: the behaviour of the simulated games, not their
sources. A table answers "who wins this table with these players"; it stays true across a
refactor that plays every game the same way (the engine's speed work, a renamed helper, a
new flavour text), and turns stale the moment any decision or outcome changes. So the
fingerprint is a hash of a fixed sample of informed games: every command each one applied
(every decision of every simulated player, in order) and who won, at the smallest, a middle
and the largest table of the rule set, at every skill preset; and the default deal at every
player count, which the sample's three sizes would not see change elsewhere (the table marks
which cell is the deal). A change that alters play only in a rare situation can miss the
sample; `tools/balance_tables.py --check` is a guard, not a proof."""

from __future__ import annotations

import hashlib
from functools import cache

from core.engine.registry import load_ruleset

from .play import play_one
from .presets import Preset
from .setups import setup_of
from .tally import Players

SEEDS = (1, 2)  # games per table size and preset


@cache
def behaviour_print(ruleset_id: str) -> str:
    """The hash of the sample's commands and winners (16 hex digits)."""
    ruleset = load_ruleset(ruleset_id)
    low, high = ruleset.min_players, ruleset.max_players
    digest = hashlib.sha256(ruleset_id.encode())
    for players in sorted({low, (low + high) // 2, high}):
        for preset in Preset:
            for seed in SEEDS:
                game = play_one(ruleset_id, players, None, {}, Players.INFORMED, preset.r, seed)
                for command, _ in game.log:
                    digest.update(repr(command).encode())
                digest.update(repr(sorted(game.state.winners or ())).encode())
    for players in range(low, high + 1):
        digest.update(f"{players}:{setup_of(ruleset_id, players, None, {}).key()}".encode())
    return digest.hexdigest()[:16]
