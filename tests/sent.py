"""What the outbox says a chat should have read: its plain messages, rendered, in the order
they were written (not the versions of a message edited in place, a ballot's or a prompt's,
nor orders such as a mute). The platforms' outage tests compare it with what arrived."""

from __future__ import annotations

from core.service.delivery.rendering import PLAIN, render
from core.service.messages.payloads import ORDERS, from_json
from core.service.ports.howto import Wording
from core.storage.models import Outbox


async def plain_messages(rows: list[Outbox], ref: str, words: Wording = PLAIN) -> list[str]:
    """The texts of `rows` sent to the chat `ref`, in the platform's `words`."""
    wanted = []
    for row in rows:
        payload = from_json(row.payload)
        if row.chat_ref != ref or row.status != "sent" or isinstance(payload, ORDERS) \
                or payload.replace is not None:
            continue
        wanted.append((await render(row, words)).text)
    return wanted
