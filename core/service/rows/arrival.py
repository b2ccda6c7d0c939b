"""An update's first statement on PostgreSQL, one round trip: the server-side function
`nightfall_arrive` (migration 0008) marks the update processed (or finds it a duplicate),
reads its chat, locks the chat's game (in its lobby or running) as `stored.chat_game` locks
it, then reads the sender and the game's seats, each after the lock, so as the lock's last
holder left them. The game is locked first, before anything of the command is written, in
the order every command and deadline takes (the game, then what hangs from it).

Elsewhere (SQLite, where a statement costs no round trip) nothing is done here and the
service asks each in turn; so does it for a sender or chat seen for the first time."""

from __future__ import annotations

from typing import Any

import orjson
from tortoise import connections

from core.storage.models import Chat, Identity

from ..ports.contract import Incoming
from .game_rows import remember_arrival
from .scope import memo

ARRIVE = "SELECT nightfall_arrive($1, $2, $3, $4) AS arrived"


async def arrive(incoming: Incoming) -> bool | None:
    """Mark the update processed: False for a duplicate (already applied), True for a new
    one, whose identity and chat (if stored) are then known to `known_identity` and
    `known_chat`, and its chat's game and seats to `stored`; None where this is not done
    (mark it the usual way)."""
    conn = connections.get("default")
    known = memo()
    if known is None or conn.capabilities.dialect != "postgres":
        return None
    chat_ref = None if incoming.chat is None else str(incoming.chat)
    _, rows = await conn.execute_query(ARRIVE, [incoming.platform, incoming.update_id,
                                                incoming.user.id, chat_ref])
    found: dict[str, Any] = orjson.loads(rows[0]["arrived"])
    if not found["fresh"]:
        return False
    if found["person"] is not None:
        known["identity", incoming.platform, incoming.user.id] = \
            Identity._init_from_db(**found["person"])
    if found["chat"] is not None:
        known["chat", incoming.platform, chat_ref] = Chat._init_from_db(**found["chat"])
    if found["game"] is not None:
        remember_arrival(found["game"], found["seats"])
    return True


def known_identity(platform: str, ref: str) -> Identity | None:
    known = memo()
    return None if known is None else known.pop(("identity", platform, ref), None)


def known_chat(platform: str, ref: str) -> Chat | None:
    known = memo()
    return None if known is None else known.pop(("chat", platform, ref), None)
