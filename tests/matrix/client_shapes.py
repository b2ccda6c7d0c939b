"""What the Matrix clients people run read of a poll, ported to a few lines each from their
sources, so a test can assert that the bot's events are what each of them renders (no real
Element or FluffyChat runs here). Each function raises AssertionError where the client would
not show the poll, and returns what it shows.

Sources read:
- Element X, matrix-rust-sdk: `crates/matrix-sdk-ui/src/timeline/event_handler.rs` renders
  `AnyMessageLikeEventContent::UnstablePollStart/UnstablePollResponse/UnstablePollEnd` only
  (other types: "Ignoring message-like event ... not supported"); the content types are
  ruma's `crates/ruma-events/src/poll/unstable_start.rs` (with
  `unstable_start/unstable_poll_answers_serde.rs`: answers truncated to 20) and
  `unstable_end.rs` (the text is required).
- FluffyChat: `lib/pages/chat/events/message.dart` shows `PollEventContent.startType` among
  message types, and the matrix Dart SDK's
  `lib/msc_extensions/msc_3381_polls/models/poll_event_content.dart` and
  `poll_event_extension.dart` parse it (`org.matrix.msc3381.*` names only).
- Element Web, matrix-js-sdk: `src/extensible_events_v1/PollStartEvent.ts` (answers sliced to
  20), `PollEndEvent.ts`, `PollResponseEvent.ts`, and `src/NamespacedValue.ts` (an
  `UnstableValue` matches both names, the unstable one first).
- What an ended poll shows: matrix-js-sdk's `src/models/poll.ts` keeps the responses sent on
  or before the end's timestamp (`filterResponseRelations`, MSC3381); Element Web's
  `MPollBody.tsx` takes each sender's latest (`collectUserVotes`) and counts the valid answer
  ids (`countVotes`); `MPollEndBody.tsx` shows the start's MPollBody under "Ended a poll" and
  the end's own text only when the start cannot be found. Element X (matrix-rust-sdk's
  timeline, `polls.rs`) folds the end into the poll (`HandleAggregationKind::PollEnd`) and
  counts likewise (ruma's `compile_unstable_poll_results`): no client shows the end's text
  beside the poll.
"""

from __future__ import annotations

from typing import Any

UNSTABLE_START = "org.matrix.msc3381.poll.start"
UNSTABLE_END = "org.matrix.msc3381.poll.end"
TEXT = "org.matrix.msc1767.text"
KINDS = ("org.matrix.msc3381.poll.disclosed", "org.matrix.msc3381.poll.undisclosed")


def element_x_poll(event: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """ruma's NewUnstablePollStartEventContent, as the timeline renders it."""
    assert event["type"] == UNSTABLE_START, event["type"]
    block = event["content"][UNSTABLE_START]
    question = block["question"][TEXT]
    assert isinstance(question, str)
    assert block.get("kind", KINDS[1]) in KINDS
    assert int(block.get("max_selections", 1)) >= 1
    answers = [(a["id"], a[TEXT]) for a in block["answers"]]
    assert all(isinstance(i, str) and isinstance(t, str) for i, t in answers)
    assert answers
    return question, answers[:20]  # ruma truncates the rest


def fluffychat_poll(event: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """The Dart SDK's PollEventContent.fromJson, for an event FluffyChat shows as a poll."""
    assert event["type"] == UNSTABLE_START, event["type"]
    body = event["content"]
    assert isinstance(body[TEXT], str)  # a required String
    block = body[UNSTABLE_START]
    assert isinstance(block["max_selections"], int)  # required, no default
    question = block["question"].get(TEXT) or block["question"]["body"]
    return question, [(a["id"], a[TEXT]) for a in block["answers"]]


def element_web_poll(event: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """matrix-js-sdk's PollStartEvent (M_POLL_START matches both names)."""
    assert event["type"] in (UNSTABLE_START, "m.poll.start"), event["type"]
    body = event["content"]
    block = body.get(UNSTABLE_START) or body.get("m.poll.start")
    assert block and block.get("question")
    question = block["question"].get(TEXT) or block["question"].get("m.text")
    assert isinstance(question, str)
    answers = [(a["id"], a.get(TEXT) or a.get("m.text")) for a in block["answers"]]
    assert answers and all(i and isinstance(i, str) for i, _ in answers)
    return question, answers[:20]  # `poll.answers.slice(0, 20)`


def ends(event: dict[str, Any], poll: dict[str, Any]) -> str:
    """The poll end as ruma (Element X), the Dart SDK (FluffyChat) and matrix-js-sdk read
    it; returns its text."""
    assert event["type"] == UNSTABLE_END, event["type"]
    body = event["content"]
    assert body["m.relates_to"] == {"rel_type": "m.reference", "event_id": poll["event_id"]}
    assert isinstance(body[UNSTABLE_END], dict)  # FluffyChat: tryGetMap(endType)
    assert event["sender"] == poll["sender"]  # FluffyChat ignores others' ends
    assert isinstance(body[TEXT], str)  # ruma: required
    return str(body[TEXT])

