"""A person leaving a game room or coming back, from its `m.room.member` event (pure): the
service's `MemberLeft` / `MemberBack` (core/service/ports/membership.py).

A member event says what he is now (`content.membership`) and, in `unsigned.prev_content`,
what he was: `join` → `leave` by himself (his `/leave`, Element's "Leave room") is a
departure, by somebody else a kick; `ban` is always one. Leaving a room he never joined (a
rejected invite) is none, nor is a ban of someone already gone; a `join` after anything but
`join` is a return (a display-name change is `join` → `join`)."""

from __future__ import annotations

from typing import Any

from core.service import ChatRef, MemberBack, MemberLeft, Membership, UserRef

from .incoming import PLATFORM

GONE = ("leave", "ban")


def membership_news(room_id: str, event: dict[str, Any], bot: str) -> Membership | None:
    """What an event of a game room's timeline says of a person's membership, if anything
    (the bot's own: its standing, client/standing.py)."""
    user, event_id = event.get("state_key"), event.get("event_id")
    if event.get("type") != "m.room.member" or not isinstance(user, str) or user == bot or \
            not isinstance(event_id, str):
        return None
    now = (event.get("content") or {}).get("membership")
    before = ((event.get("unsigned") or {}).get("prev_content") or {}).get("membership")
    if now in GONE and before not in (*GONE, "invite", "knock"):
        kicked = now == "ban" or event.get("sender") != user
        return MemberLeft(PLATFORM, event_id, ChatRef(room_id), UserRef(user), kicked)
    if now == "join" and before != "join":
        return MemberBack(PLATFORM, event_id, ChatRef(room_id), UserRef(user))
    return None
