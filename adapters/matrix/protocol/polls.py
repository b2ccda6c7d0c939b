"""Polls as the deployed clients read them (MSC3381; pure functions, no I/O).

MSC3381 says to send the unstable names until the MSC is merged, and they are what the clients
render: matrix-rust-sdk's timeline (Element X) handles ruma's `UnstablePollStart`,
`UnstablePollResponse` and `UnstablePollEnd` only; FluffyChat (the matrix Dart SDK) checks
`event.type == 'org.matrix.msc3381.poll.start'`; matrix-js-sdk (Element Web) matches both
names. So a ballot is sent as `org.matrix.msc3381.poll.start` with the unstable content keys,
and its end as `org.matrix.msc3381.poll.end`; answers are read in both forms, since clients
that speak the stable one answer with it.

At most 20 answers per poll: ruma truncates longer lists, matrix-js-sdk slices them, the Dart
SDK refuses to create them; a longer ballot is split into several polls."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .content import with_options

START = "org.matrix.msc3381.poll.start"
RESPONSE = "org.matrix.msc3381.poll.response"
END = "org.matrix.msc3381.poll.end"
STABLE_RESPONSE = "m.poll.response"
RESPONSE_TYPES = (STABLE_RESPONSE, RESPONSE)
START_TYPES = ("m.poll.start", START)
END_TYPES = ("m.poll.end", END)
TEXT = "org.matrix.msc1767.text"  # the extensible-events text the clients read for fallback
DISCLOSED = "org.matrix.msc3381.poll.disclosed"
MAX_ANSWERS = 20  # MSC3381: "clients should not show more than 20 answers"


def split(count: int) -> list[range]:
    """The answers of a ballot spread over as few polls as keep each within MAX_ANSWERS,
    evenly and in order (the last poll keeps the last answers, "Withdraw my vote")."""
    polls = max(1, math.ceil(count / MAX_ANSWERS))
    size, rest = divmod(count, polls)
    ranges, start = [], 0
    for number in range(polls):
        end = start + size + (1 if number < rest else 0)
        ranges.append(range(start, end))
        start = end
    return ranges


def start(question: str, answers: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """A single-choice, disclosed poll (`answers`: answer id, label), with its plain-text
    fallback for clients that show no polls. `m.mentions` is empty: the names in the text
    must not ping their players (the ballot's text message notifies, once)."""
    fallback = with_options(question, [label for _, label in answers])
    return {
        START: {
            "kind": DISCLOSED, "max_selections": 1,
            # body and msgtype as well: older Element versions read the question there
            "question": {TEXT: question, "body": question, "msgtype": "m.text"},
            "answers": [{"id": aid, TEXT: label} for aid, label in answers],
        },
        TEXT: fallback,
        "body": fallback,
        "m.mentions": {},
    }


def end(poll_event_id: str, result: str) -> dict[str, Any]:
    """Closes a poll: clients stop taking answers and show their final count of its answers;
    the text is the game's result, shown only where the client cannot find the poll
    (Element Web's MPollEndBody; Element X folds the end into the poll), so the result also
    comes as a reply to the poll (client/ballots.py)."""
    return {
        "m.relates_to": {"rel_type": "m.reference", "event_id": poll_event_id},
        END: {},
        TEXT: result,
        "body": result,
        "m.mentions": {},
    }


def question(content: dict[str, Any]) -> str | None:
    """The question of one of the bot's poll starts (for readers of the room)."""
    block = content.get(START)
    return str((block.get("question") or {}).get(TEXT, "")) if isinstance(block, dict) \
        else None


def answers(content: dict[str, Any]) -> list[tuple[str, str]]:
    """(answer id, label) of one of the bot's poll starts."""
    block = content.get(START)
    return [(a["id"], a[TEXT]) for a in block.get("answers", [])] if isinstance(block, dict) \
        else []


def selections(content: dict[str, Any]) -> list[str] | None:
    """The answer ids of a poll response, in whichever form it came: MSC3381's
    `org.matrix.msc3381.poll.response.answers` (Element, Element X, FluffyChat), the
    extensible-events `m.selections`, or `m.poll.response.answers`."""
    for key in (RESPONSE, STABLE_RESPONSE):
        block = content.get(key)
        if isinstance(block, dict) and isinstance(block.get("answers"), list):
            chosen = block["answers"]
            break
    else:
        chosen = content.get("m.selections")
    if not isinstance(chosen, list):
        return None
    return [c for c in chosen if isinstance(c, str)]


def response(poll_event_id: str, answer_id: str, stable: bool = False) -> dict[str, Any]:
    """A poll answer as a client sends it (used by the tests' players): the unstable form
    the deployed clients send, or the extensible-events one."""
    relates = {"rel_type": "m.reference", "event_id": poll_event_id}
    if stable:
        return {"m.relates_to": relates, "m.selections": [answer_id]}
    return {"m.relates_to": relates, RESPONSE: {"answers": [answer_id]}}
