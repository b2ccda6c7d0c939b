"""An update's first statement on PostgreSQL: it is marked processed (or found to be a
duplicate), and its sender's identity and its chat are read, in one round trip instead of
three. Elsewhere (SQLite, where a statement costs no round trip) nothing is done here and
the service asks each in turn; so does it for a sender or chat seen for the first time."""

from __future__ import annotations

import json
from typing import Any

from tortoise import connections

from core.storage.models import Chat, Identity

from .ports import Incoming
from .scope import memo

ARRIVE = """WITH marked AS (
    INSERT INTO processed_update (platform, update_id) VALUES ($1, $2)
    ON CONFLICT DO NOTHING RETURNING id)
SELECT (SELECT count(*) FROM marked) AS fresh,
    (SELECT row_to_json(i) FROM identity i WHERE i.platform = $1 AND i.ref = $3) AS person,
    (SELECT row_to_json(c) FROM chat c WHERE c.platform = $1 AND c.ref = $4) AS chat"""


async def arrive(incoming: Incoming) -> bool | None:
    """Mark the update processed: False for a duplicate (already applied), True for a new
    one, whose identity and chat (if stored) are then known to `known_identity` and
    `known_chat`; None where this is not done (mark it the usual way)."""
    conn = connections.get("default")
    known = memo()
    if known is None or conn.capabilities.dialect != "postgres":
        return None
    chat_ref = None if incoming.chat is None else str(incoming.chat)
    _, rows = await conn.execute_query(ARRIVE, [incoming.platform, incoming.update_id,
                                                incoming.user.id, chat_ref])
    found = rows[0]
    if not found["fresh"]:
        return False
    if found["person"] is not None:
        known["identity", incoming.platform, incoming.user.id] = \
            Identity._init_from_db(**_row(found["person"]))
    if found["chat"] is not None:
        known["chat", incoming.platform, chat_ref] = Chat._init_from_db(**_row(found["chat"]))
    return True


def _row(value: Any) -> dict[str, Any]:
    return json.loads(value) if isinstance(value, str) else dict(value)


def known_identity(platform: str, ref: str) -> Identity | None:
    known = memo()
    return None if known is None else known.pop(("identity", platform, ref), None)


def known_chat(platform: str, ref: str) -> Chat | None:
    known = memo()
    return None if known is None else known.pop(("chat", platform, ref), None)
