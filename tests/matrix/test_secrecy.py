"""A group room never shows a secret before it is public, across whole games of both rule
sets played through Matrix (the games of test_games.py run `tests/secrecy.py`'s check).

As in the Telegram test, every group message the engine produced carries the number of the
command behind it: the log is replayed to that point and the text the room really received
(every version the players' clients read, edits' new content and poll fallbacks included)
is checked against the secrets of that moment."""

from __future__ import annotations

from .harness import event_texts


def test_the_room_history_includes_edits_and_poll_fallbacks():
    """What the check compares against: each version a client can show."""
    edit = {"type": "m.room.message", "content": {
        "msgtype": "m.notice", "body": "* Votes so far: Ann (2).",
        "m.new_content": {"msgtype": "m.notice", "body": "Votes so far: Ann (2)."},
        "m.relates_to": {"rel_type": "m.replace", "event_id": "$x"}}}
    poll = {"type": "m.poll.start", "content": {"body": "Time to vote\n\n1️⃣ Ann"}}
    assert event_texts(edit) == ["* Votes so far: Ann (2).", "Votes so far: Ann (2)."]
    assert event_texts(poll) == ["Time to vote\n\n1️⃣ Ann"]
