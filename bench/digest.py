"""A fingerprint of the engine's behaviour, for speed work that must change nothing.

Plays seeded random games of both rule sets (as `nightfall simulate` does) and hashes every
command tried, its refusal or its outcome (events and messages), each game's opening and final
canonical state, and checks a replay now and then. Run it before and after an optimisation:
the printed digests must be identical. (Not a test: the digests change, rightly, whenever a
rule or a message changes.)

    .venv/bin/python -m bench.digest
"""

from __future__ import annotations

import hashlib
from typing import Any

from core import simulate
from core.engine import Refused
from core.engine.game import Game, replay
from core.engine.registry import load_ruleset
from core.engine.state import canonical

CASES = (("changelings", 12, 300, 1), ("changelings", 6, 200, 2), ("changelings", 20, 200, 3),
         ("changelings", 30, 100, 4), ("alchemists", 9, 200, 1), ("alchemists", 15, 300, 2),
         ("alchemists", 20, 200, 3))


def digest(ruleset_id: str, players: int, games: int, seed: int, early_close: bool) -> str:
    ruleset = load_ruleset(ruleset_id)
    hashed = hashlib.sha256()
    original = Game.apply

    def recorded(self: Game, command: Any) -> Any:
        hashed.update(repr(command).encode())
        try:
            outcome = original(self, command)
        except Refused as refusal:
            hashed.update(f"R{refusal!r}{refusal.plural!r}{refusal.count!r}".encode())
            raise
        hashed.update(repr(outcome).encode())
        return outcome

    Game.apply = recorded  # type: ignore[method-assign]
    new_game = simulate.new_game
    if early_close:
        simulate.new_game = lambda rs, n, s: new_game(rs, n, s, early_close=True)
    try:
        for i in range(games):
            game = simulate.play_random_game(ruleset, players, seed + i)
            hashed.update(repr(game.opening).encode())
            hashed.update(repr(canonical(game.state)).encode())
            if i % 50 == 0:
                again = replay(ruleset, game.setup, [command for command, _ in game.log])
                assert canonical(again.state) == canonical(game.state)
    finally:
        Game.apply = original  # type: ignore[method-assign]
        simulate.new_game = new_game
    return hashed.hexdigest()


def main() -> None:
    for early_close in (False, True):
        for ruleset_id, players, games, seed in CASES:
            print(early_close, ruleset_id, players, games, seed,
                  digest(ruleset_id, players, games, seed, early_close))


if __name__ == "__main__":
    main()
