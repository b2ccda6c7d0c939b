"""The adapter's pure parts: Matrix input as the service's commands and choices, the events
it sends, and nio's errors as the outbox's."""

from __future__ import annotations

import pytest
from nio import ErrorResponse

from adapters.matrix.client.invites import allowed
from adapters.matrix.protocol import content, names, polls
from adapters.matrix.protocol.errors import translate
from adapters.matrix.protocol.incoming import (
    KEYCAPS,
    as_command,
    is_edit,
    keycap_number,
    mention_names,
    message_body,
)
from adapters.matrix.protocol.power import creators, level_of
from adapters.text_choices import label_written, number_written
from core.service import ChatLost, Command, PermanentError, TransientError, Unreachable

BOT = "@nightfall:example.org"
MENTIONS = mention_names(BOT, "Nightfall")


@pytest.mark.parametrize(("text", "command"), [
    ("!newgame changelings", Command("newgame", "changelings")),
    ("!VOTE  Ann", Command("vote", "Ann")),
    ("!unvote", Command("unvote")),
    ("Nightfall: vote Ann", Command("vote", "Ann")),
    ("nightfall, startgame", Command("startgame")),
    ("@nightfall:example.org: !status", Command("status")),
    ("nightfall: join", Command("join")),
    ("Nightfall is slow today", None),
    ("! vote", None),
    ("hello", None),
    ("Nightfall:", None),
])
def test_commands_by_the_bot_convention_and_by_mention(text, command):
    assert as_command(text, MENTIONS) == command


def test_replies_lose_their_quoted_fallback_and_edits_are_known():
    reply = {"msgtype": "m.text", "body": "> <@ann:x> Time to vote\n> Ann\n\n2",
             "m.relates_to": {"m.in_reply_to": {"event_id": "$q"}}}
    assert message_body(reply) == "2"
    assert message_body({"msgtype": "m.image", "body": "x.png"}) is None
    assert is_edit({"m.relates_to": {"rel_type": "m.replace", "event_id": "$e"}})
    assert not is_edit(reply)


def test_choices_by_number_keycap_and_label():
    assert [keycap_number(k) for k in KEYCAPS] == list(range(1, 11))
    assert keycap_number("3\u20e3") == 3  # without the variation selector
    assert keycap_number("👍") is None
    assert [number_written(t) for t in ("2", " 2. ", "#3", "2)", "2 x", "")] == \
        [2, 2, 3, 2, None, None]
    assert label_written("  check:   bob ", ["Check: Ann", "Check: Bob"]) == 2
    assert label_written("Bo", ["Bob"]) is None


def test_poll_answers_stable_and_unstable():
    assert polls.selections({"m.selections": ["a"]}) == ["a"]
    assert polls.selections({"org.matrix.msc3381.poll.response": {"answers": ["b"]}}) == ["b"]
    assert polls.selections({"m.poll.response": {"answers": ["c"]}}) == ["c"]
    assert polls.selections({}) is None


def test_the_poll_has_the_unstable_form_and_a_text_fallback():
    poll = polls.start("Who?", [("t1", "Ann"), ("t2", "Bob")])
    assert polls.answers(poll) == [("t1", "Ann"), ("t2", "Bob")]
    assert poll["org.matrix.msc3381.poll.start"]["answers"][1] == {
        "id": "t2", "org.matrix.msc1767.text": "Bob"}
    assert poll["org.matrix.msc1767.text"] == poll["body"] == "Who?\n\n1️⃣ Ann\n2️⃣ Bob"
    ended = polls.end("$p", "Final count: Ann (2).")
    assert ended["m.relates_to"] == {"rel_type": "m.reference", "event_id": "$p"}
    assert ended["org.matrix.msc3381.poll.end"] == {}
    assert ended["org.matrix.msc1767.text"] == "Final count: Ann (2)."
    edit = content.edit("$m", "new")
    assert edit["m.new_content"]["body"] == "new" and edit["body"] == "* new"


@pytest.mark.parametrize("count", [1, 19, 20, 21, 22, 40, 41])
def test_a_ballot_is_split_into_polls_of_at_most_twenty_answers(count):
    parts = polls.split(count)
    assert [n for part in parts for n in part] == list(range(count))  # all, in order
    assert all(len(part) <= polls.MAX_ANSWERS for part in parts)
    assert len(parts) == -(-count // polls.MAX_ANSWERS)
    assert max(map(len, parts)) - min(map(len, parts)) <= 1  # evenly


def test_only_what_must_reach_a_phone_is_loud():
    assert content.loudness(False, "@ann:x", False) == ("m.notice", None)
    assert content.loudness(True, "@ann:x", False) == ("m.text", {"user_ids": ["@ann:x"]})
    assert content.loudness(True, None, True) == ("m.text", {"room": True})
    assert content.loudness(True, None, False) == ("m.text", {})
    # a group message that asks one person to act mentions him alone, not the room
    assert content.loudness(True, None, True, "@bob:x") == ("m.text", {"user_ids": ["@bob:x"]})
    assert content.may_ping_room({}, 50) and not content.may_ping_room({}, 49)
    assert content.may_ping_room({"notifications": {"room": 0}}, 0)
    assert not content.may_ping_room({"notifications": {"room": 100}}, 50)


def test_the_person_asked_is_a_pill_in_the_html_body():
    assert content.with_pill("Bob <3, accept.\n1️⃣ Open", "@bob:x", "Bob <3") == \
        '<a href="https://matrix.to/#/@bob:x">Bob &lt;3</a>, accept.<br>1️⃣ Open'
    assert content.with_pill("Accept my invitation.", "@bob:x", "Bob") == \
        '<a href="https://matrix.to/#/@bob:x">Bob</a>: Accept my invitation.'


def test_invites_follow_the_allowlist():
    assert not allowed("@ann:example.org", [])  # nothing configured: nobody yet
    assert allowed("@ann:example.org", [":example.org"])
    assert not allowed("@eve:evil.org", [":example.org"])
    assert allowed("@ann:other.org", ["@ann:other.org"])
    assert not allowed("@bob:other.org", ["@ann:other.org"])


def test_power_levels_and_room_creators():
    levels = {"users": {"@mod:x": 50, "@odd:x": "75"}, "users_default": 0}
    assert level_of(levels, "@mod:x") == 50 and level_of(levels, "@odd:x") == 75
    assert level_of(levels, "@new:x") == 0
    assert creators({"sender": "@ann:x", "content": {"room_version": "12",
                                                      "additional_creators": ["@bob:x"]}}) \
        == {"@ann:x", "@bob:x"}
    assert creators({"sender": "@ann:x", "content": {"room_version": "10"}}) == set()


def test_errors_as_the_outbox_understands_them():
    limited = ErrorResponse("slow down", "M_LIMIT_EXCEEDED", retry_after_ms=1500)
    err = translate(limited, private=False)
    assert isinstance(err, TransientError) and err.retry_after == 1.5
    forbidden = ErrorResponse("no", "M_FORBIDDEN")
    assert isinstance(translate(forbidden, private=True), Unreachable)
    assert type(translate(forbidden, private=False)) is PermanentError
    lost = translate(forbidden, private=False, lost="silenced")
    assert isinstance(lost, ChatLost) and lost.reason == "silenced"
    assert isinstance(translate(ErrorResponse("gone", "M_UNKNOWN"), private=False),
                      TransientError)  # no HTTP status known: may work later


def test_display_names_as_the_spec_computes_them():
    assert names.clean("Ann\n\n☀️ Bob is\u202e a\tchangeling\x07") == \
        "Ann ☀️ Bob is a changeling"
    members = {"!g": {"@ann:x": ("join", "Ann"), "@bob:x": ("join", "ann"),
                      "@cid:x": ("join", None), "@eve:x": ("join", "Cid @ann:x"),
                      "@old:x": ("leave", "Cid")},
               "!dm": {"@bob:x": ("join", "Bobby"), BOT: ("join", "Nightfall")}}
    shown = {user: names.display_name(members, "!g", user, {"!dm"})
             for user in ("@ann:x", "@bob:x", "@cid:x", "@eve:x")}
    assert shown == {"@ann:x": "Ann (@ann:x)", "@bob:x": "ann (@bob:x)", "@cid:x": "cid",
                     "@eve:x": "Cid @ann:x (@eve:x)"}
    assert names.display_name(members, "!dm", "@bob:x", {"!dm"}) == "ann (@bob:x)"
    long = names.with_id("D" * 300, "@dot:example.org")
    assert len(long) == names.NAME_LENGTH and long.endswith(" (@dot:example.org)")
