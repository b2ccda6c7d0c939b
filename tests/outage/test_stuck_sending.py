"""A message delivered while its status write failed (the database went away between the
send and the `sent`): the row stays `sending`; after the lease it counts as `unknown`, is
never sent again, and /metrics shows it (stuck first, unknown after)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, generate_latest

from core.health import RuntimeCollector, Snapshot
from core.service import Outgoing, RateLimits, Wording
from core.service.delivery.stuck import LEASE, counts, reconcile_sending
from core.service.messages import outbox
from core.service.messages.payloads import post
from core.service.ports.clock import ManualClock
from core.service.runtime import Runtime
from core.storage.models import Chat, Outbox


class StoppingAdapter:
    """Delivers, then the database goes away before the row is marked sent."""

    platform = "test"
    limits = RateLimits()
    wording = Wording()

    def __init__(self, server) -> None:
        self.server = server
        self.sent: list[Outgoing] = []

    async def send_post(self, message: Outgoing) -> None:
        self.sent.append(message)
        if len(self.sent) == 1:
            await self.server.stop_async()

    send_ballot = send_keyboard = send_post

    async def start(self, handle, store, catch_up) -> None:
        pass

    async def stop(self) -> None:
        pass


async def test_a_row_stuck_in_sending_becomes_unknown_and_is_never_resent(postgres):
    url = await postgres.new_database()
    clock = ManualClock()
    adapter = StoppingAdapter(postgres)
    runtime = Runtime(url, [adapter], clock=clock)
    await runtime.open(loop=False)
    try:
        chat = await Chat.create(platform="test", ref="g")
        await outbox.to_group(chat, post("Nobody is executed today."))
        deliverer = runtime.deliverer
        assert deliverer is not None
        try:
            await deliverer.deliver_due()
            raise AssertionError("the status write should have failed")
        except Exception as err:
            assert runtime.database.failed(err)  # an outage, as the loop would see it
        await postgres.start_async()
        await runtime.database.wait_up()
        assert (await Outbox.get()).status == "sending"
        assert await counts(clock.now()) == {"sending": 1, "stuck": 0, "unknown": 0}

        clock.advance(LEASE + 1)
        assert await counts(clock.now()) == {"sending": 1, "stuck": 1, "unknown": 0}
        snapshot = Snapshot()
        registry = CollectorRegistry()
        registry.register(RuntimeCollector(runtime, snapshot))
        await snapshot.refresh(clock.now())
        metrics = generate_latest(registry).decode()
        assert "nightfall_outbox_stuck 1.0" in metrics
        assert "nightfall_database_up 1.0" in metrics
        assert "nightfall_database_outages_total 1.0" in metrics

        assert await reconcile_sending(deliverer.worker, clock.now()) == 1  # (the loop's)
        assert await deliverer.deliver_due() == 0  # not sent again
        assert (await Outbox.get()).status == "unknown"
        assert len(adapter.sent) == 1
        await snapshot.refresh(clock.now())
        metrics = generate_latest(registry).decode()
        assert "nightfall_outbox_unknown 1.0" in metrics
        assert "nightfall_outbox_sending 0.0" in metrics
    finally:
        await runtime.stop()
