"""What the bot told a player privately in his running game, told again on request
(private /status): for the player whose message never arrived (a send Telegram did not
confirm in time is not repeated, to never post anything twice), or who lost track."""

from __future__ import annotations

from typing import Any

from core.storage.models import Game as GameRow
from core.storage.models import Identity, Outbox

from . import outbox, texts
from .codec import text_payload

LATEST = 4  # the newest messages told again, beside the role card


def _parts(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """A stored message's texts, without its buttons (they belong to their own phase)."""
    head = {k: payload[k] for k in ("key", "plural", "count", "params") if k in payload}
    return [head, *payload.get("more", ())]


async def recap(row: GameRow, person: Identity) -> None:
    """The role card (the game's opening messages to him) and the newest messages since."""
    told = await Outbox.filter(game_id=row.id, identity_id=person.id, private=True,
                               status__in=["sent", "unknown", "failed"]).order_by("id")
    told = [r for r in told if "key" in r.payload]
    opening = [r for r in told if r.payload.get("seq") == 0]
    later = [r for r in told if r.payload.get("seq") != 0][-LATEST:]
    parts = [part for r in (*opening, *later) for part in _parts(r.payload)]
    if not parts:
        await outbox.to_person(person, text_payload(texts.RECAP_NOTHING), game=row)
        return
    await outbox.to_person(person, {**text_payload(texts.RECAP), "more": parts}, game=row)
