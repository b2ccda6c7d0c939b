"""Matrix events as the service's platform-neutral input (pure functions, no I/O).

Matrix bots take commands as `!word args` or by mention (`Bot: word args`); the service
speaks Telegram's `/word args`, so both become that. Numbers, keycap reactions and option
labels answer a numbered keyboard; poll responses answer a poll (polls.py). Events arrive
as the raw JSON of the client-server API (nio's parsed classes differ between sync and
/messages and know nothing of polls)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

PLATFORM = "matrix"

KEYCAPS = (*(f"{n}\ufe0f\u20e3" for n in range(1, 10)), "\U0001f51f")  # 1️⃣ … 9️⃣ 🔟
COMMAND = re.compile(r"^!([A-Za-z][\w-]*)(?:\s+(.*))?$", re.S)
NUMBER = re.compile(r"^\s*#?(\d{1,3})[.)]?\s*$")


def relation(content: dict[str, Any]) -> tuple[str | None, str | None]:
    """(rel_type, event_id) of an event's `m.relates_to`, if any."""
    relates = content.get("m.relates_to")
    if not isinstance(relates, dict):
        return None, None
    rel_type, event_id = relates.get("rel_type"), relates.get("event_id")
    return (rel_type if isinstance(rel_type, str) else None,
            event_id if isinstance(event_id, str) else None)


def is_edit(content: dict[str, Any]) -> bool:
    """An `m.replace` edit: edits never count, as the rules say (a vote is what was first
    written, and an edit must not change it silently)."""
    return relation(content)[0] == "m.replace"


def message_body(content: dict[str, Any]) -> str | None:
    """The text a person wrote, without the quoted reply fallback (`> <@x> ...` lines that
    older clients put before a reply); None for what is not text, and for notices (what
    bots send: answering them would let two bots talk forever)."""
    if content.get("msgtype") not in ("m.text", "m.emote"):
        return None
    body = content.get("body")
    if not isinstance(body, str):
        return None
    in_reply = isinstance(content.get("m.relates_to"), dict) and \
        "m.in_reply_to" in content["m.relates_to"]
    if in_reply and body.startswith("> "):
        lines = body.split("\n")
        while lines and lines[0].startswith(">"):
            lines.pop(0)
        body = "\n".join(lines)
    return body.strip()


def mention_names(user_id: str, display_name: str | None) -> list[str]:
    """What people write before a colon to address the bot: its display name, its full id,
    its localpart (longest first so the id wins over a prefix of it)."""
    localpart = user_id[1:].split(":")[0] if user_id.startswith("@") else user_id
    names = {user_id, localpart}
    if display_name:
        names.add(display_name)
    return sorted((n for n in names if n), key=len, reverse=True)


def as_command(body: str, mentions: Sequence[str]) -> str | None:
    """`!vote Ann` or `Bot: vote Ann` as the service's `/vote Ann`; None when the text is not
    addressed to the bot as a command."""
    match = COMMAND.match(body)
    if match:
        word, rest = match.group(1), (match.group(2) or "").strip()
        return f"/{word.lower()} {rest}".rstrip()
    lowered = body.casefold()
    for name in mentions:
        prefix = name.casefold()
        if lowered.startswith(prefix):
            rest = body[len(name):]
            if rest[:1] in (":", ",") and rest[1:].strip():
                words = rest[1:].strip().lstrip("!/")
                word, _, args = words.partition(" ")
                if word:
                    return f"/{word.lower()} {args.strip()}".rstrip()
    return None


def keycap_number(key: str) -> int | None:
    """1..10 for a keycap digit reaction (with or without the emoji variation selector)."""
    plain = key.replace("\ufe0f", "")
    for number, cap in enumerate(KEYCAPS, start=1):
        if plain == cap.replace("\ufe0f", ""):
            return number
    return None


def choice_number(body: str) -> int | None:
    """A written option number: `2`, `2.`, `#2`."""
    match = NUMBER.match(body)
    return int(match.group(1)) if match else None


def choice_by_label(body: str, labels: Sequence[str]) -> int | None:
    """The option whose label is exactly what the person wrote (case and spacing aside)."""
    wanted = " ".join(body.split()).casefold()
    if not wanted:
        return None
    for number, label in enumerate(labels, start=1):
        if " ".join(label.split()).casefold() == wanted:
            return number
    return None




def localpart(user_id: str) -> str:
    return user_id[1:].split(":")[0] if user_id.startswith("@") else user_id
