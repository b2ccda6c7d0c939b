"""Delivering from the outbox: due rows handed to their adapters, each kind of message by
its own method, transient failures retried until the platform answers again (outage.py),
permanent ones told to the host (telling/undelivered.py), every adapter kept within its per-chat and
overall rate limits. A row is marked "sending" before it is handed to the adapter, so a
crash never announces anything twice (see `Deliverer.recover`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
from typing import Protocol

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from core.storage.db import database_unavailable
from core.storage.models import DeliveryLease, Outbox

from ..messages.outbox import replace_key, tell_group_unreachable
from ..messages.payloads import ORDERS, from_json
from ..ports.clock import Clock
from ..ports.contract import (
    Adapter,
    Ballot,
    ChatEvent,
    ChatLost,
    ChatMoved,
    ChatRef,
    CountsParts,
    Keyboard,
    NotAllowed,
    Order,
    Outgoing,
    PermanentError,
    Picture,
    Post,
    Resends,
    SendsPictures,
    Silence,
    TeamRoom,
    TransientError,
    UnknownOutcome,
    Unreachable,
    connected,
)
from ..telling.undelivered import tell_host
from .outage import Outages, backed_off, retry_at
from .rate_limits import RateLimiter
from .rendering import render

log = logging.getLogger(__name__)


async def hand_to(adapter: Adapter, item: Outgoing | Order) -> None:
    """Each kind to the adapter's method for it."""
    match item:
        case Post():
            await adapter.send_post(item)
        case Ballot():
            await adapter.send_ballot(item)
        case Keyboard():
            await adapter.send_keyboard(item)
        case Picture():
            if isinstance(adapter, SendsPictures):
                await adapter.send_picture(item)
            else:  # an adapter that shows no pictures: the caption
                await adapter.send_post(Post(item.outbox_id, item.to, item.text, None,
                                             item.urgent))
        case Silence():
            await adapter.silence(item)
        case TeamRoom():
            await adapter.team(item)


class Watcher(Protocol):
    """Who hears what delivery learned about a chat (the game service)."""

    async def chat_event(self, event: ChatEvent) -> None: ...

    async def order_refused(self, outbox_id: int) -> None: ...


LEASE_KEY = "outbox"  # the DeliveryLease row
LEASE_SECONDS = 15.0


def worker_name() -> str:
    return f"{socket.gethostname()[:20]}-{os.getpid()}-{secrets.token_hex(4)}"


class Deliverer:
    """Hands due outbox rows to their adapters.

    With several workers on one database (`shared`), one of them delivers at a time: it holds
    a lease that it renews while alive, so each chat's order and the platforms' rate limits
    (kept in that worker's memory) hold; when it dies, another takes the lease after at most
    LEASE_SECONDS and recovers what the dead one was sending.
    """

    def __init__(self, adapters: dict[str, Adapter], clock: Clock, shared: bool = False,
                 watcher: Watcher | None = None) -> None:
        self.adapters = adapters
        self.clock = clock
        self.shared = shared
        self.watcher = watcher
        self.worker = worker_name()
        self.leading = False
        self.limiter = RateLimiter()
        self.failures: dict[str, int] = {}
        self.outages = Outages()
        # each platform's wording (command prefix, how-to texts), read once, not per row
        self.wordings = {name: adapter.wording for name, adapter in adapters.items()}

    async def _lead(self, now: float) -> bool:
        """Hold (or take, or renew) the delivery lease; recover when newly taken."""
        if not self.shared:
            if not self.leading:
                self.leading = True
                await self.recover()
            return True
        if not await DeliveryLease.exists(name=LEASE_KEY):
            with contextlib.suppress(IntegrityError):
                await DeliveryLease.create(name=LEASE_KEY)
        async with in_transaction():
            lease = await DeliveryLease.filter(name=LEASE_KEY).select_for_update().get()
            mine = lease.worker == self.worker
            until = lease.until
            if not mine and until > now:
                self.leading = False
                return False
            if not mine or until - now < LEASE_SECONDS / 2:
                lease.worker, lease.until = self.worker, now + LEASE_SECONDS
                await lease.save(update_fields=["worker", "until"])
        if not self.leading:
            self.leading = True
            await self.recover()
        return True

    async def release(self) -> None:
        """A clean stop: let the next worker (or this one restarted) deliver at once."""
        if self.shared and self.leading:
            async with in_transaction():
                lease = await DeliveryLease.filter(name=LEASE_KEY).select_for_update().first()
                if lease is not None and lease.worker == self.worker:
                    lease.worker, lease.until = "", 0.0
                    await lease.save(update_fields=["worker", "until"])
        self.leading = False

    async def recover(self) -> None:
        """After a crash, a message caught between "sending" and "sent" may or may not have
        arrived: send it again only where the platform makes that harmless (an edit in place),
        otherwise give it up rather than announce something twice. A mute or a team room's
        membership is a state, so setting it again is always harmless."""
        for row in await Outbox.filter(status="sending", platform__in=list(self.adapters)) \
                .exclude(worker=self.worker):
            adapter = self.adapters[row.platform]
            payload = from_json(row.payload)
            again = isinstance(payload, ORDERS) or (
                isinstance(adapter, Resends)
                and await adapter.can_resend(row.chat_ref, replace_key(payload)))
            row.status = "pending" if again else "unknown"
            await row.save(update_fields=["status"])

    async def deliver_due(self, limit: int = 200) -> int:
        """Deliver what is due now; return how many were sent."""
        now = self.clock.now()
        if not await self._lead(now):
            return 0
        ready = [name for name, adapter in self.adapters.items()
                 if connected(adapter)  # a platform not reached yet waits
                 and not self.outages.resting(name, now)]
        if not ready:
            return 0
        rows = await (Outbox.filter(status="pending", next_try_at__lte=now,
                                    platform__in=ready)
                      .order_by("id").limit(limit))
        sent = 0
        blocked = await backed_off(ready, now) if rows else set()  # each chat's order
        newest: dict[str, int] = {}
        payloads = {row.id: from_json(row.payload) for row in rows}
        for row in rows:
            version_of = replace_key(payloads[row.id])
            if version_of:
                newest[version_of] = row.id
        for row in rows:
            replaced = replace_key(payloads[row.id])
            if replaced and newest[replaced] != row.id:
                row.status = "superseded"  # a newer version of the same message waits
                await row.save(update_fields=["status"])
                continue
            adapter = self.adapters[row.platform]
            key = (row.platform, row.chat_ref)
            if self.outages.resting(row.platform, now):  # it began to rest this round
                continue
            paced = not isinstance(payloads[row.id], ORDERS)  # a message, not an order
            if key in blocked or (paced and not self.limiter.allow(adapter, row.chat_ref,
                                                                   row.private, now)):
                blocked.add(key)  # keep each chat's order: nothing later for it this round
                continue
            row.status = "sending"  # committed before the send: a crash cannot repeat it
            row.worker = self.worker
            row.next_try_at = now  # the send's start: stuck after `stuck.LEASE`
            await row.save(update_fields=["status", "worker", "next_try_at"])
            try:
                parts = await self._hand_over(adapter, row)
            except ChatMoved as err:  # the failed message goes to the chat's new place
                row.status = "pending"
                row.next_try_at = now
                blocked.add(key)
                await row.save(update_fields=["status", "next_try_at"])
                await self._tell(ChatEvent(row.platform, ChatRef.parse(row.chat_ref), "moved",
                                           new_ref=err.new_ref))
                continue
            except TransientError as err:  # retried until the platform answers again
                row.attempts += 1
                row.next_try_at = retry_at(now, row.attempts, err.retry_after)
                row.status = "pending"
                if self.outages.stuck(row.platform, row.attempts, now, err.retry_after):
                    row.status = "failed"  # no outage: the platform takes everything else
                    log.warning("delivery %s failed for good after %s attempts: %s", row.id,
                                row.attempts, err)
                    await tell_host(row)
                else:
                    if err.retry_after:
                        self.limiter.hold(row.platform, row.chat_ref, row.next_try_at)
                    log.warning("delivery %s failed (attempt %s): %s", row.id, row.attempts,
                                err)
                self._failed(row.platform)
                self.outages.failed(row.platform, now, err.retry_after)
                blocked.add(key)
            except UnknownOutcome as err:
                row.status = "unknown"  # may have arrived: posting it again could double it
                self._failed(row.platform)
                self.outages.failed(row.platform, now)
                log.warning("delivery %s may or may not have arrived: %s", row.id, err)
            except ChatLost as err:
                row.status = "lost"  # posted when the bot can write there again
                self._failed(row.platform)
                blocked.add(key)
                await row.save(update_fields=["status"])
                await self._tell(ChatEvent(row.platform, ChatRef.parse(row.chat_ref), "lost",
                                           reason=err.reason, whole=err.reason.whole))
                continue
            except NotAllowed as err:
                row.status = "norights"  # done when the bot has the right again
                await row.save(update_fields=["status"])
                log.info("delivery %s waits for the right to do it: %s", row.id, err)
                if self.watcher is not None:
                    await self.watcher.order_refused(row.id)
                continue
            except Unreachable as err:
                row.status = "unreachable"
                self._failed(row.platform)
                log.info("delivery %s waits for its reader: %s", row.id, err)
                await tell_group_unreachable(row)
            except PermanentError as err:
                row.status = "failed"
                self._failed(row.platform)
                log.warning("delivery %s failed for good: %s", row.id, err)
                await tell_host(row)
            except Exception as err:
                if database_unavailable(err):
                    raise  # the round ends; the row is recovered when the database is back
                # not the platform's answer (a text that cannot be rendered, a missing
                # catalog entry, a bug): this row alone fails, visibly, and the round goes on
                row.status = "failed"
                log.exception("delivery %s could not be rendered or handed over", row.id)
                await tell_host(row)
            else:
                row.status = "sent"
                self.outages.answered(row.platform, now)
                sent += 1
                if paced and parts > 1:  # a long text went as several messages
                    self.limiter.spend(adapter, row.chat_ref, row.private, now, parts - 1)
            await row.save(update_fields=["status", "attempts", "next_try_at"])
        return sent

    async def _tell(self, event: ChatEvent) -> None:
        if self.watcher is not None:
            await self.watcher.chat_event(event)

    async def _hand_over(self, adapter: Adapter, row: Outbox) -> int:
        """Deliver one row; how many platform messages it took."""
        item = await render(row, self.wordings[row.platform])
        await hand_to(adapter, item)
        if isinstance(item, Silence | TeamRoom):
            return 1
        return adapter.cost(item) if isinstance(adapter, CountsParts) else 1

    def _failed(self, platform: str) -> None:
        self.failures[platform] = self.failures.get(platform, 0) + 1
