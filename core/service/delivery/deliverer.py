"""Delivering from the outbox: due rows handed to their adapters, each kind of message by
its own method, every adapter kept within its per-chat, per-group and overall budgets
(rate_limits.py). A round claims the due rows and sends them in parallel across chats, each
chat's in order, what players must act on first (lanes.py); it settles each failure by its
kind (failures.py: transient ones retried until the platform answers again, see outage.py;
permanent ones told to the host, see telling/undelivered.py). A row is marked "sending"
before it is handed to the adapter, so a crash never announces anything twice (see
`Deliverer.recover`). A backlog the budget cannot carry is said (budget.py).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import secrets
import socket
from dataclasses import dataclass

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from core.storage.db import database_unavailable
from core.storage.models import DeliveryLease, Outbox
from core.storage.states import OutboxState, moved

from ..messages.outbox import replace_key
from ..messages.payloads import ORDERS, Payload, from_json
from ..ports.adapter import (
    Adapter,
    CountsParts,
    Resends,
    SendsInParallel,
    SendsPictures,
    connected,
)
from ..ports.clock import Clock
from ..ports.contract import (
    Ballot,
    Keyboard,
    Order,
    Outgoing,
    PermanentError,
    Picture,
    Post,
    Silence,
    TeamRoom,
    TransientError,
    UnknownOutcome,
)
from ..telling.undelivered import tell_host
from .budget import Budget
from .failures import Watcher, after_failure
from .lanes import Outcome, Pacing, Round
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


@dataclass(frozen=True, slots=True)
class Due:
    """A round's rows, claimed: the rows to try, their payloads, and the chats held."""

    rows: list[Outbox]
    payloads: dict[int, Payload]
    held: set[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Sent:
    parts: int  # how many platform messages it took (a long text may be split)


@dataclass(frozen=True, slots=True)
class NotSent:
    error: Exception


def width(adapter: Adapter) -> int:
    """How many sends go to a platform at once: what its connections carry, at most its
    overall rate a second."""
    if not isinstance(adapter, SendsInParallel):
        return 1
    overall = adapter.limits.overall
    return max(1, min(adapter.parallel, math.ceil(overall) if overall else adapter.parallel))


LEASE_KEY = "outbox"  # the DeliveryLease row
LEASE_SECONDS = 15.0
CLAIM = 500  # rows a round looks at: enough chats to fill the overall budget


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
        self.budget = Budget()
        self.failures: dict[str, int] = {}
        self.outages = Outages()
        self.next_ready: float | None = None  # when a row held by its budgets may go
        self.orders: set[int] = set()  # the round's rows that are orders (no budget spent)
        self.edits: set[int] = set()  # the round's edits of messages already posted
        self.widths = {name: width(adapter) for name, adapter in adapters.items()}
        self.pacing = Pacing(self._wait, self._blocked, self._begin, self._deliver,
                             self._parallel, clock.now, self._ranked, self._edit)
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
        for row in await Outbox.filter(status=OutboxState.SENDING,
                                       platform__in=list(self.adapters)) \
                .exclude(worker=self.worker):
            adapter = self.adapters[row.platform]
            payload = from_json(row.payload)
            again = isinstance(payload, ORDERS) or (
                isinstance(adapter, Resends)
                and await adapter.can_resend(row.chat_ref, replace_key(payload)))
            row.status = moved(row.status, OutboxState.PENDING if again else OutboxState.UNKNOWN)
            await row.save(update_fields=["status"])

    async def deliver_due(self, limit: int = CLAIM) -> int:
        """Deliver what is due now, each chat's rows in order; return how many were sent."""
        now = self.clock.now()
        self.next_ready = None
        due = await self.claim(now, limit)
        if due is None:
            return 0
        await self.budget.check(self.adapters, now, frozenset(
            name for name, adapter in self.adapters.items()
            if not connected(adapter) or self.outages.failing(name)))
        self.orders = {row.id for row in due.rows if isinstance(due.payloads[row.id], ORDERS)}
        self.edits = await self.edits_in_place(due)
        this = Round(self.pacing, due.rows, due.payloads, due.held)
        sent = await this.run()
        if this.soonest is not None:
            self.next_ready = self.clock.now() + this.soonest
        self.limiter.forget_idle(self.clock.now())
        return sent

    def _paced(self, row: Outbox) -> bool:
        return row.id not in self.orders  # a message, not an order

    def _wait(self, row: Outbox, now: float) -> float:
        """Seconds until the row may go by its chat's and its platform's budgets (an order
        spends none; the platform's rest is `_blocked`)."""
        if not self._paced(row):
            return 0.0
        return self.limiter.wait(self.adapters[row.platform], row.chat_ref, row.private, now,
                                 self._edit(row))

    def _blocked(self, platform: str, now: float) -> float:
        """Seconds until anything may go to the platform: its rest, its overall budget."""
        rest = self.outages.resting_until(platform) - now
        return max(rest, self.limiter.platform_wait(self.adapters[platform], now), 0.0)

    def _edit(self, row: Outbox) -> bool:
        return row.id in self.edits

    async def edits_in_place(self, due: Due) -> set[int]:
        """The rows that change a message already posted (the platform knows its id): they
        need not wait behind their chat's new posts, and a group keeps a share of its
        minute for them (rate_limits.py). Asked of the adapter that did the posting; one
        that cannot say has none."""
        edits = set()
        for row in due.rows:
            adapter, key = self.adapters[row.platform], replace_key(due.payloads[row.id])
            if key and isinstance(adapter, Resends) and await adapter.can_resend(row.chat_ref,
                                                                                   key):
                edits.add(row.id)
        return edits

    def _ranked(self, platform: str) -> bool:
        return bool(self.adapters[platform].limits.overall)

    def _begin(self, row: Outbox, now: float) -> None:
        if self._paced(row):
            self.limiter.begin(self.adapters[row.platform], row.chat_ref, now)

    def _parallel(self, platform: str) -> int:
        """How many sends go to the platform at once: what its connections carry, at most
        its overall rate a second; one (a probe) while it keeps failing."""
        if self.outages.failing(platform):
            return 1
        return self.widths[platform]

    async def _deliver(self, row: Outbox) -> Outcome:
        """Send one row (its budgets counted as begun) and settle what followed."""
        adapter = self.adapters[row.platform]
        result = await self.send_one(adapter, row, self.clock.now())
        now = self.clock.now()
        if self._paced(row):
            parts = result.parts if isinstance(result, Sent) else 1
            self.limiter.end(adapter, row.chat_ref, row.private, now, parts)
        if isinstance(result, Sent):
            row.status = moved(row.status, OutboxState.SENT)
            self.outages.answered(row.platform, now)
            await row.save(update_fields=["status", "attempts", "next_try_at"])
            return Outcome(sent=True)
        return Outcome(sent=False, holds_chat=await self.settle_failure(row, result.error, now))

    async def claim(self, now: float, limit: int) -> Due | None:
        """The due rows of the platforms that can take them (None when this worker does not
        deliver now), oldest first; an older version of a message a newer one replaces is
        superseded, never sent. The chats whose earlier rows wait for a back-off are held."""
        if not await self._lead(now):
            return None
        ready = [name for name, adapter in self.adapters.items()
                 if connected(adapter)  # a platform not reached yet waits
                 and not self.outages.resting(name, now)]
        if not ready:
            return None
        rows = await (Outbox.filter(status=OutboxState.PENDING, next_try_at__lte=now,
                                    platform__in=ready)
                      .order_by("id").limit(limit))
        held = await backed_off(ready, now) if rows else set()  # each chat's order
        payloads = {row.id: from_json(row.payload) for row in rows}
        newest: dict[str, int] = {}
        for row in rows:
            version_of = replace_key(payloads[row.id])
            if version_of:
                newest[version_of] = row.id
        kept = []
        for row in rows:
            replaced = replace_key(payloads[row.id])
            if replaced and newest[replaced] != row.id:
                # a newer version of the same message waits
                row.status = moved(row.status, OutboxState.SUPERSEDED)
                await row.save(update_fields=["status"])
            else:
                kept.append(row)
        return Due(kept, payloads, held)

    async def send_one(self, adapter: Adapter, row: Outbox, now: float) -> Sent | NotSent:
        """Hand one row to its adapter, marked "sending" first (committed before the send: a
        crash cannot repeat it). Whatever the platform answered is the result; outside its
        answers, an unreachable database ends the round (the row is recovered when it is
        back) and any other error is the result."""
        row.status = moved(row.status, OutboxState.SENDING)
        row.worker = self.worker
        row.next_try_at = now  # the send's start: stuck after `stuck.LEASE`
        await row.save(update_fields=["status", "worker", "next_try_at"])
        try:
            return Sent(await self._hand_over(adapter, row))
        except (TransientError, PermanentError, UnknownOutcome) as err:
            return NotSent(err)  # the platform's answer (a timeout's cause is no database's)
        except Exception as err:
            if database_unavailable(err):
                raise
            return NotSent(err)

    async def settle_failure(self, row: Outbox, err: Exception, now: float) -> bool:
        """What follows the error, by its kind (failures.py); whether the row's chat is held
        for the rest of the round."""
        after = after_failure(err)
        retry_after = err.retry_after if isinstance(err, TransientError) else None
        if after.retried:  # back to waiting, or failed for good when only it keeps failing
            await self.retry(row, retry_after, now, err)
        else:
            row.status = moved(row.status, after.status)
        if after.counts:
            self._failed(row.platform)
        if after.outage:
            self.outages.failed(row.platform, now, retry_after)
        if after.log_as:
            log.log(after.level, after.log_as, row.id, err,
                    exc_info=err if after.level >= logging.ERROR else None)
        if after.tell is not None:
            await after.tell(row)
        await row.save(update_fields=["status", "attempts", "next_try_at"])
        if after.hear is not None and self.watcher is not None:
            await after.hear(self.watcher, row, err)
        return after.holds_chat

    async def retry(self, row: Outbox, retry_after: float | None, now: float,
                    err: Exception) -> None:
        """A transient failure: tried again after a back-off (or the platform's own wait)
        until the platform answers again; failed for good, the host told, when the platform
        takes everything else and only this keeps failing (no outage)."""
        row.attempts += 1
        row.next_try_at = retry_at(now, row.attempts, retry_after)
        if self.outages.stuck(row.platform, row.attempts, now, retry_after):
            row.status = moved(row.status, OutboxState.FAILED)  # from "sending": given up
            log.warning("delivery %s failed for good after %s attempts: %s", row.id,
                        row.attempts, err)
            await tell_host(row)
        else:
            row.status = moved(row.status, OutboxState.PENDING)
            if retry_after and self.limiter.hold(row.platform, row.chat_ref, row.next_try_at,
                                                 now):
                log.warning("%s: flood limits in several chats at once: nothing goes there "
                            "for %.0f s", row.platform, retry_after)
            log.warning("delivery %s failed (attempt %s): %s", row.id, row.attempts, err)

    async def _hand_over(self, adapter: Adapter, row: Outbox) -> int:
        """Deliver one row; how many platform messages it took."""
        item = await render(row, self.wordings[row.platform])
        await hand_to(adapter, item)
        if isinstance(item, Silence | TeamRoom):
            return 1
        return adapter.cost(item) if isinstance(adapter, CountsParts) else 1

    def _failed(self, platform: str) -> None:
        self.failures[platform] = self.failures.get(platform, 0) + 1
