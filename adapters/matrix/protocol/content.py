"""The messages the bot sends, as client-server API content (pure functions).

Buttons have no Matrix equivalent that every client shows, so a group ballot becomes native
polls (polls.py) with a text message listing the same options, and every other keyboard
becomes numbered options in the text, answered by number, keycap reaction or label.

Loudness: the spec's default push rule `.m.rule.suppress_notices` silences `m.notice` before
any mention or one-to-one rule, so what a player must act on or learn (`Outgoing.urgent`) is
`m.text`, mentioning the reader in a private room, and the whole room (`@room`) in the group
where the room's power levels let the bot (`notifications.room`); the rest stays a notice.
A group message that asks one person to act (`Post.asks`) mentions him alone: `m.mentions`
with his user id (the push rule `.m.rule.is_user_mention` notifies and highlights) and his
name in the HTML body as a pill, the link to his Matrix ID that clients show as a mention.
Every `m.text` carries `m.mentions`, so that the names in it ping nobody by themselves (the
legacy display-name rule applies only to events without it)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from adapters import text_choices

from .incoming import KEYCAPS

NOTICE = "m.notice"  # the bot's chatter: clients show it as a bot's, bots ignore it
TEXT = "m.text"  # what must reach a phone
HTML = "org.matrix.custom.html"  # the `format` of a `formatted_body`
ROOM_NOTIFICATION_LEVEL = 50  # the spec's default for `notifications.room`
COUNTED = "\u2705"  # ✅ on a typed vote the game took
OUT_OF_GAME = "\U0001f47b"  # 👻 on what an unmutable dead player writes


def with_options(text: str, labels: Sequence[str]) -> str:
    """The options numbered under the text, `1️⃣ Ann` (keycaps invite a reaction), `11. Kim`
    past ten."""
    return text_choices.with_options(text, labels, KEYCAPS)


def message(text: str, msgtype: str = NOTICE, mentions: dict[str, Any] | None = None,
            html: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"msgtype": msgtype, "body": text}
    if mentions is not None:
        body["m.mentions"] = mentions
    if html is not None:
        body["format"] = HTML
        body["formatted_body"] = html
    return body


def with_pill(text: str, user_id: str, name: str) -> str:
    """The HTML body of a text for the person it asks: the first place that names him
    becomes a pill (a link to his Matrix ID), or a pill goes before a text that does not
    name him; the rest is the text, escaped, its line breaks kept."""
    link = f'<a href="https://matrix.to/#/{escape(user_id)}">{escape(name)}</a>'
    body, named = escape(text, quote=False), escape(name, quote=False)
    at = body.find(named) if named else -1
    html = f"{link}: {body}" if at < 0 else body[:at] + link + body[at + len(named):]
    return html.replace("\n", "<br>")


def edit(original: str, text: str, msgtype: str = NOTICE) -> dict[str, Any]:
    """An `m.replace` of one of the bot's own messages (clients show the newest version in
    place; the `* ` body is the fallback for those that do not). It keeps the original's
    `msgtype` and mentions nobody again (an edit is no news)."""
    return {"msgtype": msgtype, "body": f"* {text}", "m.mentions": {},
            "m.new_content": {"msgtype": msgtype, "body": text, "m.mentions": {}},
            "m.relates_to": {"rel_type": "m.replace", "event_id": original}}


def reaction(event_id: str, key: str) -> dict[str, Any]:
    """An `m.annotation` on an event: the bot's quiet marks (no client notifies of a
    reaction), `COUNTED` on a vote typed as a command, `OUT_OF_GAME` on what a dead player
    the bot cannot mute writes in the game room."""
    return {"m.relates_to": {"rel_type": "m.annotation", "event_id": event_id, "key": key}}


def reply(event_id: str, text: str) -> dict[str, Any]:
    """A quiet notice in reply to an event (clients show the event it answers above it;
    no reply fallback, which the spec has dropped), mentioning nobody."""
    return {**message(text, NOTICE, {}), "m.relates_to": {"m.in_reply_to": {"event_id": event_id}}}


Loudness = tuple[str, dict[str, Any] | None]  # (msgtype, m.mentions or None for none)


def loudness(urgent: bool, reader: str | None, room_ping: bool,
             asks: str | None = None) -> Loudness:
    """(msgtype, m.mentions) of a message: a notice, unless `urgent`; then `m.text`,
    mentioning the private room's `reader`, or in the group the one person it `asks` to
    act, else the whole room if `room_ping`."""
    if not urgent:
        return NOTICE, None
    if reader is not None:
        return TEXT, {"user_ids": [reader]}
    if asks is not None:
        return TEXT, {"user_ids": [asks]}
    return TEXT, {"room": True} if room_ping else {}


def may_ping_room(levels: dict[str, Any], power: int) -> bool:
    """Whether a sender with `power` makes `@room` notify (the push rule
    `.m.rule.is_room_mention` checks `sender_notification_permission`)."""
    wanted = (levels.get("notifications") or {}).get("room", ROOM_NOTIFICATION_LEVEL)
    try:
        return power >= int(wanted)
    except (TypeError, ValueError):
        return power >= ROOM_NOTIFICATION_LEVEL
