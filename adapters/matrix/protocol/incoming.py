"""Matrix events as the service's platform-neutral input (pure functions, no I/O).

Matrix bots take commands as `!word args` or by mention (`Bot: word args`); a `/word args`
that a client lets through counts as well. Each becomes the service's `Command`. Numbers,
keycap reactions and option labels answer a numbered keyboard (adapters/text_choices.py);
poll responses answer a poll (polls.py). Events arrive as the raw JSON of the client-server
API (nio's parsed classes differ between sync and /messages and know nothing of polls)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from core.service import Command

PLATFORM = "matrix"

KEYCAPS = (*(f"{n}\ufe0f\u20e3" for n in range(1, 10)), "\U0001f51f")  # 1️⃣ … 9️⃣ 🔟
COMMAND = re.compile(r"^!([A-Za-z][\w-]*)(?:\s+(.*))?$", re.S)


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


def as_command(body: str, mentions: Sequence[str]) -> Command | None:
    """`!vote Ann`, `Bot: vote Ann` or `/vote Ann` as the command (vote, Ann); None when the
    text is not addressed to the bot as a command."""
    match = COMMAND.match(body)
    if match:
        return Command(match.group(1).lower(), (match.group(2) or "").strip())
    lowered = body.casefold()
    for name in mentions:
        prefix = name.casefold()
        if lowered.startswith(prefix):
            rest = body[len(name):]
            if rest[:1] in (":", ",") and rest[1:].strip():
                words = rest[1:].strip().lstrip("!/")
                word, _, args = words.partition(" ")
                if word:
                    return Command(word.lower(), args.strip())
    return Command.parse(body, "/")


def keycap_number(key: str) -> int | None:
    """1..10 for a keycap digit reaction (with or without the emoji variation selector)."""
    plain = key.replace("\ufe0f", "")
    for number, cap in enumerate(KEYCAPS, start=1):
        if plain == cap.replace("\ufe0f", ""):
            return number
    return None


def localpart(user_id: str) -> str:
    return user_id[1:].split(":")[0] if user_id.startswith("@") else user_id
