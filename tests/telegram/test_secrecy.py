"""A group chat never shows a secret before it is public, across whole games of both rule
sets played through Telegram: the check of `tests/secrecy.py` over the fake Bot API's full
history of the group (edits included)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.engine import replay
from core.engine.log_codec import setup_from_json
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from tests.secrecy import assert_no_early_secrets, leaks

from .harness import open_table, play_to_the_end, sign_up

GAMES = [("changelings", 10, 3), ("changelings", 12, 8), ("alchemists", 12, 4),
         ("alchemists", 15, 9)]


@pytest.mark.parametrize(("ruleset", "players", "seed"), GAMES,
                         ids=[f"{r}-{n}" for r, n, _ in GAMES])
async def test_the_group_never_reads_a_secret_before_it_is_public(api, tmp_path, ruleset,
                                                                 players, seed):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", players, seed=seed)
    try:
        await sign_up(table, ruleset)
        row = await play_to_the_end(table, seed=seed)
        await assert_no_early_secrets({v.text for v in api.history(table.group)}, row)
    finally:
        await table.stop()


def test_the_leak_detector_finds_what_it_looks_for():
    rules = load_ruleset("changelings")
    game = replay(rules, setup_from_json({
        "ruleset": "changelings", "players": [[f"p{i}", n] for i, n in enumerate(
            ["Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus"], start=1)],
        "seed": 1, "roles": ["changeling", "changeling", "researcher", "shield", "pony",
                             "pony", "pony"], "options": [], "setup": [], "start": None}), [])
    words = Renderer("en", rules.vocabulary, str)
    assert leaks("Day 2. Ann is a Changeling!", game.state, False, words)
    assert leaks("Bob sleeps.", game.state, True, words)
    assert not leaks("The changelings of Ponyville wake.", game.state, True, words)
    assert not leaks("Ann is the new mayor.", game.state, False, words)
    paired = replace(game.state, rs=replace(game.state.rs, lovers=("p1", "p2")))
    assert leaks("Ann and Bob are in love.", paired, False, words)
    assert leaks("Bob leaves, and Ann's heart breaks.", paired, False, words)
    assert not leaks("A tie in the town square: Ann, Bob, Cid!", paired, False, words)
