"""A group room never shows a secret before it is public, across whole games of both rule
sets played through Matrix (the games of test_games.py call `assert_no_early_secrets`).

As in the Telegram test, every group message the engine produced carries the number of the
command behind it: the log is replayed to that point and the text the room really received
(every version the players' clients read, edits' new content and poll fallbacks included)
is checked against the secrets of that moment, with the Telegram test's detector."""

from __future__ import annotations

from core.engine import replay
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.service.codec import command_from_json
from core.service.games import setup_from_json
from core.service.outbox import render
from core.storage.models import Game as GameRow
from core.storage.models import LogEntry, Outbox
from tests.telegram.test_secrecy import leaks

from .harness import Table, event_texts


async def assert_no_early_secrets(table: Table, row: GameRow) -> int:
    """Check every engine message the group room received; returns how many were checked."""
    seen = set(table.group_texts())
    rows = [r for r in await Outbox.filter(game_id=row.id, private=False, status="sent")
            .order_by("id") if "seq" in r.payload]
    commands = [command_from_json(e.command)
                for e in await LogEntry.filter(game_id=row.id).order_by("seq")]
    setup = setup_from_json(row.setup or {})
    rules = load_ruleset(row.ruleset)
    words = Renderer("en", rules.vocabulary, str)
    checked = 0
    for message in rows:
        text = (await render(message)).text
        assert text in seen, f"delivered but not in the room's history: {text}"
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
    return checked


def test_the_room_history_includes_edits_and_poll_fallbacks():
    """What the check compares against: each version a client can show."""
    edit = {"type": "m.room.message", "content": {
        "msgtype": "m.notice", "body": "* Votes so far: Ann (2).",
        "m.new_content": {"msgtype": "m.notice", "body": "Votes so far: Ann (2)."},
        "m.relates_to": {"rel_type": "m.replace", "event_id": "$x"}}}
    poll = {"type": "m.poll.start", "content": {"body": "Time to vote\n\n1️⃣ Ann"}}
    assert event_texts(edit) == ["* Votes so far: Ann (2).", "Votes so far: Ann (2)."]
    assert event_texts(poll) == ["Time to vote\n\n1️⃣ Ann"]
