"""Outbox rows caught in `sending` by a failed status write.

A row is marked `sending` (with its send's start in `next_try_at`) before it is handed to
the platform, and marked `sent` after. When that second write fails (the database went away
just then), the message may well have arrived, but the row says `sending` forever: the
crash recovery (`Deliverer.recover`) only looks at other workers' rows. After `LEASE`
seconds such a row of this worker counts as `unknown`: never sent again (it could double an
announcement), and shown in /metrics.
"""

from __future__ import annotations

import logging

from core.storage.models import Outbox

log = logging.getLogger(__name__)
LEASE = 15.0  # seconds a send may take before its row counts as stuck


async def reconcile_sending(worker: str, now: float) -> int:
    """This worker's rows stuck in `sending` become `unknown`; how many."""
    stuck = await Outbox.filter(status="sending", worker=worker,
                                next_try_at__lt=now - LEASE).update(status="unknown")
    if stuck:
        log.warning("%s outbox row(s) stuck in sending count as unknown (not resent)", stuck)
    return int(stuck)


async def counts(now: float) -> dict[str, int]:
    """The rows being sent, those of them stuck past the lease, and the unknown ones."""
    return {
        "sending": await Outbox.filter(status="sending").count(),
        "stuck": await Outbox.filter(status="sending", next_try_at__lt=now - LEASE).count(),
        "unknown": await Outbox.filter(status="unknown").count(),
    }
