"""Writing to the outbox (inside the command's transaction) and delivering from it.

Messages are stored as keys with parameters and rendered in the reader's language only when
delivered. Delivery retries transient failures with exponential backoff and keeps every
adapter within its per-chat and overall rate limits. A row is marked "sending" before it is
handed to the adapter, so a crash never announces anything twice (see `Deliverer.recover`).
"""

from __future__ import annotations

import logging
from typing import Any

from core.engine.registry import load_ruleset
from core.i18n import Renderer, available_locales
from core.storage.models import Chat, Game, Identity, Outbox, Seat

from .clock import Clock
from .codec import decode
from .ports import Adapter, Outgoing, PermanentError, TransientError

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
MAX_BACKOFF = 300.0


async def to_group(chat: Chat, payload: dict[str, Any], game: Game | None = None,
                   buttons: list[dict[str, Any]] | None = None) -> None:
    await Outbox.create(game=game, platform=chat.platform, chat_ref=chat.ref, private=False,
                        payload={**payload, "buttons": buttons or []})


async def to_person(identity: Identity, payload: dict[str, Any], game: Game | None = None,
                    buttons: list[dict[str, Any]] | None = None) -> None:
    await Outbox.create(game=game, platform=identity.platform, chat_ref=identity.ref,
                        private=True, identity=identity,
                        payload={**payload, "buttons": buttons or []})


class RateLimiter:
    """Minimum spacing between messages per chat and overall, per platform."""

    def __init__(self) -> None:
        self.last_chat: dict[tuple[str, str], float] = {}
        self.last_overall: dict[str, float] = {}

    def allow(self, adapter: Adapter, chat_ref: str, now: float) -> bool:
        limits = adapter.limits
        key = (adapter.platform, chat_ref)
        if limits.per_chat and now - self.last_chat.get(key, -1e18) < 1 / limits.per_chat:
            return False
        if limits.overall and now - self.last_overall.get(adapter.platform, -1e18) < (
                1 / limits.overall):
            return False
        self.last_chat[key] = now
        self.last_overall[adapter.platform] = now
        return True


class Deliverer:
    """Hands due outbox rows to their adapters."""

    def __init__(self, adapters: dict[str, Adapter], clock: Clock) -> None:
        self.adapters = adapters
        self.clock = clock
        self.limiter = RateLimiter()
        self.failures: dict[str, int] = {}

    async def recover(self) -> None:
        """After a crash, a message caught between "sending" and "sent" may or may not have
        arrived: send it again only where the platform makes that harmless (an edit in place),
        otherwise give it up rather than announce something twice."""
        for row in await Outbox.filter(status="sending", platform__in=list(self.adapters)):
            again = getattr(self.adapters[row.platform], "idempotent_edits", False) and bool(
                row.payload.get("replace"))
            row.status = "pending" if again else "unknown"
            await row.save(update_fields=["status"])

    async def deliver_due(self, limit: int = 200) -> int:
        """Deliver what is due now; return how many were sent."""
        now = self.clock.now()
        rows = await (Outbox.filter(status="pending", next_try_at__lte=now,
                                    platform__in=list(self.adapters))
                      .order_by("id").limit(limit))
        sent = 0
        blocked: set[tuple[str, str]] = set()
        newest: dict[str, int] = {}
        for row in rows:
            key = row.payload.get("replace")
            if key:
                newest[key] = row.id
        for row in rows:
            replaced = row.payload.get("replace")
            if replaced and newest[replaced] != row.id:
                row.status = "superseded"  # a newer version of the same message waits
                await row.save(update_fields=["status"])
                continue
            adapter = self.adapters[row.platform]
            key = (row.platform, row.chat_ref)
            if key in blocked or not self.limiter.allow(adapter, row.chat_ref, now):
                blocked.add(key)  # keep each chat's order: nothing later for it this round
                continue
            outgoing = await render(row)
            row.status = "sending"  # committed before the send: a crash cannot repeat it
            await row.save(update_fields=["status"])
            try:
                await adapter.send(outgoing)
            except TransientError as err:
                row.attempts += 1
                delay = err.retry_after or min(MAX_BACKOFF, 2.0 ** row.attempts)
                row.next_try_at = now + delay
                row.status = "failed" if row.attempts >= MAX_ATTEMPTS else "pending"
                self.failures[row.platform] = self.failures.get(row.platform, 0) + 1
                blocked.add(key)
                log.warning("delivery %s failed (attempt %s): %s", row.id, row.attempts, err)
            except PermanentError as err:
                row.status = "failed"
                self.failures[row.platform] = self.failures.get(row.platform, 0) + 1
                log.warning("delivery %s failed for good: %s", row.id, err)
            else:
                row.status = "sent"
                sent += 1
            await row.save(update_fields=["status", "attempts", "next_try_at"])
        return sent


async def reader_locale(row: Outbox) -> str:
    """A private message: the reader's own setting, else the platform's hint, else the
    group's; a group message: the chat's language."""
    known = set(available_locales())
    if row.private and row.identity_id is not None:
        person = await Identity.get(id=row.identity_id)
        for choice in (person.locale, person.locale_hint, row.payload.get("locale")):
            if choice in known:
                return str(choice)
    if row.game_id is not None:
        game = await Game.get(id=row.game_id).prefetch_related("chat")
        return str(game.chat.locale)
    if not row.private:
        chat = await Chat.get_or_none(platform=row.platform, ref=row.chat_ref)
        if chat is not None:
            return str(chat.locale)
    return "en"


async def render(row: Outbox) -> Outgoing:
    names: dict[str, str] = {}
    vocabulary: dict[str, dict[str, str]] = {}
    if row.game_id is not None:
        game = await Game.get(id=row.game_id)
        vocabulary = load_ruleset(game.ruleset).vocabulary
        for seat in await Seat.filter(game_id=game.id, active=True).prefetch_related("identity"):
            names[seat.pid] = seat.identity.name
    renderer = Renderer(await reader_locale(row), vocabulary, lambda pid: names.get(pid, pid))
    payload = row.payload
    text = renderer.render_parts(payload["key"], payload.get("plural"), payload.get("count"),
                                 decode(payload.get("params") or {}))
    buttons = tuple((label_text(renderer, b["label"]), b["token"])
                    for b in payload.get("buttons") or [])
    recipient = None
    if row.private and row.identity_id is not None:
        recipient = (await Identity.get(id=row.identity_id)).name
    return Outgoing(row.id, row.chat_ref, row.private, text, recipient, buttons,
                    row.payload.get("replace"))


def label_text(renderer: Renderer, label: dict[str, Any]) -> str:
    if "text" in label:
        return str(label["text"])
    if "ref" in label:
        return str(renderer.value(decode(label)))
    return renderer.text(label["key"], decode(label.get("params") or {}))
