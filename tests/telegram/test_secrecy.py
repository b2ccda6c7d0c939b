"""A group chat never shows a secret before it is public, across whole games of both rule
sets played through Telegram.

Every group message the engine produced carries the number of the command behind it, so the
test knows the exact state of the game when it was written: it replays the log to that
point and checks the text the group really received (the fake Bot API's full history,
edits included) against the secrets of that moment:
- until the game ends, a living player's role never stands in one sentence with their name
  (role cards, checks, team knowledge stay private);
- while a night runs (not the command that ends it), the group hears no player's name
  (night targets stay secret until the morning post);
- the lovers are never named together while both live.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from core.engine import replay
from core.engine.messages import Ref
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.service.codec import command_from_json
from core.service.games import setup_from_json
from core.service.outbox import render
from core.storage.models import LogEntry, Outbox

from .harness import open_table, play_to_the_end, sign_up

SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
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
        seen = [version.text for version in api.history(table.group)]
        rows = [r for r in await Outbox.filter(game_id=row.id, private=False, status="sent")
                .order_by("id") if "seq" in r.payload]
        commands = [command_from_json(e.command)
                    for e in await LogEntry.filter(game_id=row.id).order_by("seq")]
        setup = setup_from_json(row.setup or {})
        rules = load_ruleset(ruleset)
        words = Renderer("en", rules.vocabulary, str)
        checked = 0
        for message in rows:
            text = (await render(message)).text
            assert text in seen, f"delivered but not in the group's history: {text}"
            seq = message.payload["seq"]
            state = replay(rules, setup, commands[:seq]).state
            before = replay(rules, setup, commands[:seq - 1]).state if seq else state
            in_the_night = before.phase.kind == state.phase.kind == "night"
            if state.phase.kind == "ended":
                continue  # the end-of-game summary makes every secret public
            problems = leaks(text, state, in_the_night, words)
            assert not problems, problems
            checked += 1
        assert checked > 10  # a whole game's announcements were checked
    finally:
        await table.runtime.stop()


def leaks(text: str, state: Any, in_the_night: bool, words: Renderer) -> list[str]:
    """What in a group text gives away a secret of this moment of the game."""
    found = []
    for sentence in SENTENCE.split(text):
        for p in state.players.values():
            role = words.word(Ref("role", p.role))
            if p.alive and _names(sentence, p.name) and _names(sentence, role):
                found.append(f"{p.name} ({role}) revealed while alive: {sentence}")
        if in_the_night and any(_names(sentence, p.name) for p in state.players.values()):
            found.append(f"a name in the group during the night: {sentence}")
        lovers = getattr(state.rs, "lovers", None)
        if lovers and all(state.players[pid].alive for pid in lovers) and all(
                _names(sentence, state.players[pid].name) for pid in lovers):
            found.append(f"the lovers named together: {sentence}")
    return found


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


def _names(sentence: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", sentence) is not None
