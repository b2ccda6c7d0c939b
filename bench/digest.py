"""A fingerprint of the engine's behaviour, for work that must change nothing.

Plays seeded random games of both rule sets (as `nightfall simulate` does) and hashes every
command tried, its refusal or its outcome (events and messages), each game's opening and final
canonical state, and checks a replay now and then. Run it before and after a change: the
printed digests must be identical. (Not a test: the digests change, rightly, whenever a rule or
a message changes.)

What is hashed is a neutral encoding -- kinds, field names and values -- never `repr()`, so a
change of Python types that says the same thing (a named tuple become a dataclass, a `str`
become a `NewType`, a text's parts gathered into one object) leaves the digests alone.

    .venv/bin/python -m bench.digest
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields, is_dataclass
from typing import Any

from core import simulate
from core.engine import Refused
from core.engine.game import Game, replay
from core.engine.messages import Ref
from core.engine.phase import Phase
from core.engine.registry import load_ruleset
from core.engine.state import canonical

CASES = (("changelings", 12, 300, 1), ("changelings", 6, 200, 2), ("changelings", 20, 200, 3),
         ("changelings", 30, 100, 4), ("alchemists", 9, 200, 1), ("alchemists", 15, 300, 2),
         ("alchemists", 20, 200, 3))


def neutral(value: Any) -> Any:
    """A JSON value that says what `value` says, whatever its Python type."""
    if isinstance(value, Ref):
        return ["ref", value.kind, value.value]
    if isinstance(value, Phase):
        return ["phase", str(value)]
    if isinstance(value, dict):
        return ["map", [[neutral(k), neutral(v)] for k, v in
                        sorted(value.items(), key=lambda item: str(item[0]))]]
    if isinstance(value, (set, frozenset)):
        return ["set", sorted((neutral(v) for v in value), key=json.dumps)]
    if isinstance(value, (list, tuple)):
        return ["list", [neutral(v) for v in value]]
    if is_dataclass(value) and not isinstance(value, type):
        return ["record", type(value).__name__,
                [[f.name, neutral(getattr(value, f.name))] for f in fields(value)]]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"no neutral form for {value!r}")


def text_parts(text: Any) -> list[Any]:
    """The parts of a translatable text (a message's, a refusal's)."""
    return [text.key, text.plural, text.count, neutral(text.params)]


def message_form(message: Any) -> list[Any]:
    audience = message.audience
    return ["message", audience.kind, audience.ref, *text_parts(message.text)]


def outcome_form(outcome: Any) -> list[Any]:
    return ["outcome", [["event", e.kind, neutral(e.data)] for e in outcome.events],
            [message_form(m) for m in outcome.messages]]


def command_form(command: Any) -> list[Any]:
    return ["command", type(command).__name__,
            sorted([f.name, neutral(getattr(command, f.name))] for f in fields(command))]


def _feed(hashed: Any, form: Any) -> None:
    hashed.update(json.dumps(form, ensure_ascii=False, separators=(",", ":")).encode())


def digest(ruleset_id: str, players: int, games: int, seed: int, early_close: bool) -> str:
    ruleset = load_ruleset(ruleset_id)
    hashed = hashlib.sha256()
    original = Game.apply

    def recorded(self: Game, command: Any) -> Any:
        _feed(hashed, command_form(command))
        try:
            outcome = original(self, command)
        except Refused as refusal:
            _feed(hashed, ["refused", *text_parts(refusal.text)])
            raise
        _feed(hashed, outcome_form(outcome))
        return outcome

    Game.apply = recorded  # type: ignore[method-assign]
    new_game = simulate.new_game
    if early_close:
        simulate.new_game = lambda rs, n, s, roles=None, **options: new_game(
            rs, n, s, roles, **{**options, "early_close": True})
    try:
        for i in range(games):
            game = simulate.play_random_game(ruleset, players, seed + i)
            _feed(hashed, outcome_form(game.opening))
            _feed(hashed, ["state", neutral(canonical(game.state))])
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
