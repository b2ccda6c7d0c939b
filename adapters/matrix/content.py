"""The events the bot sends, as client-server API content (pure functions).

Buttons have no Matrix equivalent that every client shows, so a group ballot becomes a
native poll (MSC3381, stable `m.poll.*` and the unstable `org.matrix.msc3381.*` keys in one
event, since deployed clients read one or the other) and every other keyboard becomes
numbered options in the text, answered by number, keycap reaction or label. Plain-text
fallbacks keep everything readable in clients that know no polls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .incoming import KEYCAPS

MSGTYPE = "m.notice"  # the bot's own messages: clients show them as a bot's, bots ignore them
POLL_ENDED = "■"  # the poll end's fallback text; the result itself is the service's message


def option_lines(labels: Sequence[str]) -> str:
    """`1️⃣ Ann` per option (keycaps invite a reaction), `11. Kim` past ten."""
    return "\n".join(f"{KEYCAPS[i]} {label}" if i < len(KEYCAPS) else f"{i + 1}. {label}"
                     for i, label in enumerate(labels))


def with_options(text: str, labels: Sequence[str]) -> str:
    return f"{text}\n\n{option_lines(labels)}" if labels else text


def message(text: str) -> dict[str, Any]:
    return {"msgtype": MSGTYPE, "body": text}


def edit(original: str, text: str) -> dict[str, Any]:
    """An `m.replace` of one of the bot's own messages (clients show the newest version in
    place; the `* ` body is the fallback for those that do not)."""
    return {"msgtype": MSGTYPE, "body": f"* {text}",
            "m.new_content": {"msgtype": MSGTYPE, "body": text},
            "m.relates_to": {"rel_type": "m.replace", "event_id": original}}


def poll_start(question: str, answers: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """A single-choice, disclosed poll: `answers` are (answer id, label)."""
    fallback = with_options(question, [label for _, label in answers])
    return {
        "m.poll": {
            "kind": "m.disclosed", "max_selections": 1,
            "question": {"m.text": [{"body": question}]},
            "answers": [{"m.id": aid, "m.text": [{"body": label}]} for aid, label in answers],
        },
        "m.text": [{"body": fallback}],
        "org.matrix.msc3381.poll.start": {
            "kind": "org.matrix.msc3381.poll.disclosed", "max_selections": 1,
            "question": {"org.matrix.msc1767.text": question, "body": question,
                         "msgtype": "m.text"},
            "answers": [{"id": aid, "org.matrix.msc1767.text": label}
                        for aid, label in answers],
        },
        "org.matrix.msc1767.text": fallback,
        "body": fallback,
    }


def poll_end(poll_event_id: str) -> dict[str, Any]:
    """Closes a poll (clients stop taking answers and show the final count)."""
    return {
        "m.relates_to": {"rel_type": "m.reference", "event_id": poll_event_id},
        "m.text": [{"body": POLL_ENDED}],
        "org.matrix.msc3381.poll.end": {},
        "org.matrix.msc1767.text": POLL_ENDED,
        "body": POLL_ENDED,
    }


def poll_question(content: dict[str, Any]) -> str | None:
    """The question of a poll start, stable or unstable (for readers of the room)."""
    stable = content.get("m.poll")
    if isinstance(stable, dict):
        texts = stable.get("question", {}).get("m.text") or []
        if texts and isinstance(texts[0], dict):
            return str(texts[0].get("body", ""))
    unstable = content.get("org.matrix.msc3381.poll.start")
    if isinstance(unstable, dict):
        return str(unstable.get("question", {}).get("org.matrix.msc1767.text", ""))
    return None


def poll_answers(content: dict[str, Any]) -> list[tuple[str, str]]:
    """(answer id, label) of a poll start, stable or unstable."""
    stable = content.get("m.poll")
    if isinstance(stable, dict):
        return [(a["m.id"], a["m.text"][0]["body"]) for a in stable.get("answers", [])]
    unstable = content.get("org.matrix.msc3381.poll.start")
    if isinstance(unstable, dict):
        return [(a["id"], a["org.matrix.msc1767.text"]) for a in unstable.get("answers", [])]
    return []


def poll_response(poll_event_id: str, answer_id: str, stable: bool = True) -> dict[str, Any]:
    """A poll answer as a client sends it (used by the tests' players)."""
    relates = {"rel_type": "m.reference", "event_id": poll_event_id}
    if stable:
        return {"m.relates_to": relates, "m.selections": [answer_id]}
    return {"m.relates_to": relates, "org.matrix.msc3381.poll.response": {"answers": [answer_id]}}
