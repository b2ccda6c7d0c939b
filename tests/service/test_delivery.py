"""Delivery from the outbox: retries with backoff on transient failures, giving up on
permanent ones, and per-chat rate limits. The failing adapter is a mock: failure injection."""

from __future__ import annotations

from core.service import outbox
from core.service.clock import ManualClock
from core.service.deliverer import Deliverer
from core.service.payloads import post
from core.service.ports import Outgoing, PermanentError, RateLimits, TransientError
from core.storage.db import open_db
from core.storage.models import Chat, Identity, Outbox

UNLIMITED = RateLimits()


class FlakyAdapter:
    platform = "test"

    def __init__(self, failures: list[Exception | None], limits: RateLimits = UNLIMITED):
        self.failures = failures
        self.limits = limits
        self.sent: list[Outgoing] = []

    async def send_post(self, message: Outgoing) -> None:
        failure = self.failures.pop(0) if self.failures else None
        if failure is not None:
            raise failure
        self.sent.append(message)

    send_ballot = send_keyboard = send_post


async def test_transient_failures_are_retried_with_backoff_then_delivered(db_url):
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g", locale="de")
    await outbox.to_group(chat, post("Nobody is executed today."))
    clock = ManualClock()
    adapter = FlakyAdapter([TransientError("flood"), TransientError("flood", retry_after=30)])
    deliverer = Deliverer({"test": adapter}, clock)
    assert await deliverer.deliver_due() == 0
    row = await Outbox.get()
    assert (row.status, row.attempts, row.next_try_at - clock.now()) == ("pending", 1, 2.0)
    clock.advance(2)
    assert await deliverer.deliver_due() == 0
    row = await Outbox.get()
    assert (row.attempts, row.next_try_at - clock.now()) == (2, 30.0)  # the platform's wish
    clock.advance(29)
    assert await deliverer.deliver_due() == 0
    clock.advance(1)
    assert await deliverer.deliver_due() == 1
    assert adapter.sent[0].text == "Heute wird niemand hingerichtet."
    assert (await Outbox.get()).status == "sent"


async def test_a_permanent_failure_is_given_up(db_url):
    await open_db(db_url)
    person = await Identity.create(platform="test", ref="u1", name="Ann", locale="ru")
    await outbox.to_person(person, post("The game is paused."))
    deliverer = Deliverer({"test": FlakyAdapter([PermanentError("blocked")])}, ManualClock())
    assert await deliverer.deliver_due() == 0
    assert (await Outbox.get()).status == "failed"


async def test_the_per_chat_rate_limit_spaces_messages_and_keeps_their_order(db_url):
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g")
    for key in ("Nobody is executed today.", "The game is paused."):
        await outbox.to_group(chat, post(key))
    clock = ManualClock()
    adapter = FlakyAdapter([], RateLimits(per_chat=1.0))
    deliverer = Deliverer({"test": adapter}, clock)
    assert await deliverer.deliver_due() == 1
    assert await deliverer.deliver_due() == 0  # too soon for the same chat
    clock.advance(1)
    assert await deliverer.deliver_due() == 1
    assert [m.text for m in adapter.sent] == ["Nobody is executed today.", "The game is paused."]


class SplittingAdapter(FlakyAdapter):
    """A platform that posts every message in three parts (Telegram splits long texts)."""

    def cost(self, message: Outgoing) -> int:
        return 3


async def test_a_message_sent_in_parts_spends_the_rate_budget_of_every_part(db_url):
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g")
    for key in ("Nobody is executed today.", "The game is paused."):
        await outbox.to_group(chat, post(key))
    clock = ManualClock()
    adapter = SplittingAdapter([], RateLimits(per_chat=1.0, per_group_minute=4))
    deliverer = Deliverer({"test": adapter}, clock)
    assert await deliverer.deliver_due() == 1
    clock.advance(1)
    assert await deliverer.deliver_due() == 0  # three parts went: three seconds
    clock.advance(2)
    assert await deliverer.deliver_due() == 1  # the group's minute: 3 + 1 of 4
    assert len(adapter.sent) == 2


async def test_a_send_of_unknown_outcome_is_never_repeated(db_url):
    from core.service.ports import UnknownOutcome

    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g")
    await outbox.to_group(chat, post("Nobody is executed today."))
    clock = ManualClock()
    adapter = FlakyAdapter([UnknownOutcome("timed out")])
    deliverer = Deliverer({"test": adapter}, clock)
    assert await deliverer.deliver_due() == 0
    clock.advance(600)
    assert await deliverer.deliver_due() == 0
    assert (await Outbox.get()).status == "unknown" and adapter.sent == []
