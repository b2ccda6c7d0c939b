"""Delivery from the outbox: retries with backoff on transient failures (as long as an
outage lasts, the platform resting between probes, each chat's order kept), giving up on
permanent ones (the host told whom and what, never the text), and per-chat rate limits. The
failing adapters are mocks: failure injection."""

from __future__ import annotations

from core.service import (
    ChatRef,
    Outgoing,
    PermanentError,
    RateLimits,
    Reader,
    TransientError,
    Wording,
)
from core.service.delivery.deliverer import Deliverer
from core.service.delivery.outage import STUCK_ATTEMPTS
from core.service.messages import outbox
from core.service.messages.payloads import (
    KeyboardPayload,
    PostPayload,
    StoredButton,
    WordsLabel,
    from_json,
    part,
    post,
)
from core.service.ports.clock import ManualClock
from core.storage.db import open_db
from core.storage.models import Chat, GameRecord, Identity, Outbox

UNLIMITED = RateLimits()


class FlakyAdapter:
    platform = "test"
    wording = Wording()

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
    adapter = SplittingAdapter([], RateLimits(per_chat=1.0, per_group_minute=6))
    deliverer = Deliverer({"test": adapter}, clock)
    assert await deliverer.deliver_due() == 1
    clock.advance(1)
    assert await deliverer.deliver_due() == 0  # three parts went: three seconds
    clock.advance(2)
    assert await deliverer.deliver_due() == 1  # the group's minute: 3 + 1 of the posts' 4
    assert len(adapter.sent) == 2


async def test_a_send_of_unknown_outcome_is_never_repeated(db_url):
    from core.service import UnknownOutcome

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


# ---------------------------------------------------------------------- platform outages
class Outage(FlakyAdapter):
    """A platform that answers nothing but server errors while `down`, and counts what it
    was handed (failure injection)."""

    def __init__(self) -> None:
        super().__init__([])
        self.down = True
        self.calls = 0

    async def send_post(self, message: Outgoing) -> None:
        self.calls += 1
        if self.down:
            raise TransientError("502 Bad Gateway")
        self.sent.append(message)

    send_ballot = send_keyboard = send_post


async def test_transient_failures_are_retried_as_long_as_the_outage_lasts(db_url):
    """A 30-minute outage: the row keeps waiting (far past the old 8 attempts), its back-off
    never above a minute, and it goes out once the platform answers."""
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g")
    await outbox.to_group(chat, post("Nobody is executed today."))
    clock = ManualClock()
    adapter = Outage()
    deliverer = Deliverer({"test": adapter}, clock)
    waits = []
    for _ in range(30):
        await deliverer.deliver_due()
        row = await Outbox.get()
        assert row.status == "pending"
        waits.append(row.next_try_at - clock.now())
        clock.advance(60)
    assert waits[:6] == [2.0, 4.0, 8.0, 16.0, 32.0, 60.0] and max(waits) == 60.0
    assert (await Outbox.get()).attempts == 30
    adapter.down = False
    assert await deliverer.deliver_due() == 1
    assert (await Outbox.get()).status == "sent"


async def test_a_platform_that_keeps_failing_rests(db_url):
    """Ten chats wait while the platform is down: after three failures in a row nothing more
    is handed to it that round, and then one probe per rest, not ten requests."""
    await open_db(db_url)
    for n in range(10):
        chat = await Chat.create(platform="test", ref=f"g{n}")
        await outbox.to_group(chat, post("Nobody is executed today."))
    clock = ManualClock()
    adapter = Outage()
    deliverer = Deliverer({"test": adapter}, clock)
    await deliverer.deliver_due()
    assert adapter.calls == 3 and deliverer.outages.resting("test", clock.now())
    clock.advance(1)
    await deliverer.deliver_due()
    assert adapter.calls == 3  # resting: 2 s
    clock.advance(1)
    await deliverer.deliver_due()
    assert adapter.calls == 4  # one probe, which fails: 4 s more
    for _ in range(20):  # ten minutes of outage, a probe every rest
        clock.advance(30)
        await deliverer.deliver_due()
    assert adapter.calls < 4 + 20 + 10
    adapter.down = False
    clock.advance(60)
    delivered = 0
    for _ in range(3):  # the probe goes through; the rest follow at once
        delivered += await deliverer.deliver_due()
    assert delivered == 10 and not deliverer.outages.resting("test", clock.now())


async def test_nothing_overtakes_a_message_in_back_off(db_url):
    """A role card waits out its back-off; the announcement written after it for the same
    chat waits too (another chat's does not), and they arrive in their order."""
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g")
    other = await Chat.create(platform="test", ref="h")
    await outbox.to_group(chat, post("Nobody is executed today."))
    clock = ManualClock()
    adapter = FlakyAdapter([TransientError("connection reset")])
    deliverer = Deliverer({"test": adapter}, clock)
    assert await deliverer.deliver_due() == 0
    await outbox.to_group(chat, post("The game is paused."))
    await outbox.to_group(other, post("The game is paused."))
    assert await deliverer.deliver_due() == 1  # the other chat's
    assert [m.to for m in adapter.sent] == [ChatRef("h")]
    clock.advance(2)
    assert await deliverer.deliver_due() == 2
    assert [m.text for m in adapter.sent[1:]] == ["Nobody is executed today.",
                                                  "The game is paused."]


class Refusing(FlakyAdapter):
    """A platform that refuses for good whatever goes to some chats (failure injection)."""

    def __init__(self, refused: set[str]) -> None:
        super().__init__([])
        self.refused = refused

    async def send_post(self, message: Outgoing) -> None:
        to = message.to
        ref = to.user.id if isinstance(to, Reader) else str(to)
        if ref in self.refused:
            raise PermanentError("400 Bad Request: message is too long")
        self.sent.append(message)

    send_ballot = send_keyboard = send_post


SECRET = "You are a changeling. Your partner is Bob."


async def test_a_permanent_failure_tells_the_host_whom_and_what_once(db_url):
    """The host hears, in his language, that Ann's role card and then her prompt never
    arrived, and that a group announcement did not: once per recipient and kind, and never
    the text (a role is a secret)."""
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g", locale="en")
    host = await Identity.create(platform="test", ref="host", name="Hanna", locale="de")
    ann = await Identity.create(platform="test", ref="ann", name="Ann", locale="ru")
    game = await GameRecord.create(chat=chat, ruleset="changelings", host=host,
                                   status="running")
    opening = PostPayload((part(SECRET),), urgent=True, seq=0)
    await outbox.to_person(ann, opening, game=game)
    await outbox.to_person(ann, PostPayload((part("Your team: Bob."),), seq=0), game=game)
    await outbox.to_person(ann, KeyboardPayload((part("Whom do you visit?"),),
                                                (StoredButton(WordsLabel("Bob"), "t1"),)),
                           game=game)
    clock = ManualClock()
    adapter = Refusing({"ann"})
    deliverer = Deliverer({"test": adapter}, clock)
    await deliverer.deliver_due()
    await deliverer.deliver_due()  # the notices
    adapter.refused = {"g"}
    await outbox.to_group(chat, post("Nobody is executed today."), game=game)
    await outbox.to_group(chat, post("The game is paused."), game=game)
    await deliverer.deliver_due()
    await deliverer.deliver_due()
    told = [m.text for m in adapter.sent if isinstance(m.to, Reader) and m.to.user.id == "host"]
    assert len(told) == 3, told
    assert "Ann" in told[0] and "Rollenkarte" in told[0]
    assert "Ann" in told[1] and "Aufforderung" in told[1]
    assert "Ansage" in told[2] and "Ann" not in told[2]
    for text in told:
        assert SECRET not in text and "Bob" not in text and "Nobody" not in text
    assert await Outbox.filter(status="failed").count() == 5


class OneBadMessage(FlakyAdapter):
    """A platform that takes everything but one chat's messages, which it fails with a
    "server error" every time (failure injection)."""

    def __init__(self, bad: str) -> None:
        super().__init__([])
        self.bad = bad

    async def send_post(self, message: Outgoing) -> None:
        if message.to == ChatRef(self.bad):
            raise TransientError("500 Internal Server Error")
        self.sent.append(message)

    send_ballot = send_keyboard = send_post


async def test_a_message_failing_alone_while_the_platform_works_is_given_up(db_url):
    """No outage: the platform delivers the other chats' messages all along. After about
    half an hour the one row that keeps failing is given up, so that its chat's later
    messages no longer wait behind it."""
    await open_db(db_url)
    bad = await Chat.create(platform="test", ref="bad")
    good = await Chat.create(platform="test", ref="good")
    await outbox.to_group(bad, post("Nobody is executed today."))
    clock = ManualClock()
    deliverer = Deliverer({"test": OneBadMessage("bad")}, clock)
    for _ in range(STUCK_ATTEMPTS - 1):
        await outbox.to_group(good, post("The game is paused."))
        await deliverer.deliver_due()
        clock.advance(60)
    first = await Outbox.filter(chat_ref="bad").first()
    assert first is not None and first.status == "pending"
    await outbox.to_group(bad, post("The game is paused."))  # waits behind it
    await deliverer.deliver_due()
    assert (await Outbox.get(id=first.id)).status == "failed"
    assert await deliverer.deliver_due() == 0  # the next fails as well, on its own
    assert await Outbox.filter(chat_ref="good", status="sent").count() == STUCK_ATTEMPTS - 1


async def test_a_row_that_cannot_be_rendered_fails_alone_and_the_host_is_told(db_url, caplog):
    """Anything that is not the platform's answer (here a text whose placeholder has no
    parameter: a bug) fails only its own row, visibly; the round goes on with the others."""
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g", locale="en")
    host = await Identity.create(platform="test", ref="h", name="Ann", locale="de")
    game = await GameRecord.create(chat=chat, ruleset="changelings", host=host, setup={},
                                   snapshot={}, status="running")
    await outbox.to_group(chat, PostPayload((part("Time left now: {left}."),)), game=game)
    await outbox.to_group(chat, post("The game is paused."), game=game)
    adapter = FlakyAdapter([])
    deliverer = Deliverer({"test": adapter}, ManualClock())
    assert await deliverer.deliver_due() == 1  # the good row went out in the same round
    assert [m.text for m in adapter.sent] == ["The game is paused."]
    broken, good, _notice = await Outbox.all().order_by("id")
    assert (broken.status, good.status) == ("failed", "sent")
    assert f"delivery {broken.id} could not be rendered" in caplog.text
    assert "KeyError" in caplog.text
    await deliverer.deliver_due()  # the host's notice: what and for whom, never the text
    assert adapter.sent[-1].text.startswith("Ich konnte eine Ansage in der Gruppe")
    assert "Time left" not in adapter.sent[-1].text
    assert adapter.sent[-1].asks is not None  # it asks the host to act: it rings


async def test_a_host_notice_that_fails_for_good_is_not_told_again(db_url):
    """The notice to the host is marked as one where it is written (never recognised by its
    words): when it fails for good as well, nobody is told about it, and the outbox ends."""
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g", locale="en")
    host = await Identity.create(platform="test", ref="h", name="Ann", locale="de")
    game = await GameRecord.create(chat=chat, ruleset="changelings", host=host, setup={},
                                   snapshot={}, status="running")
    await outbox.to_group(chat, post("The game is paused."), game=game)
    deliverer = Deliverer({"test": FlakyAdapter([PermanentError("kicked"),
                                                 PermanentError("blocked")])}, ManualClock())
    await deliverer.deliver_due()
    announcement, notice = await Outbox.all().order_by("id")
    assert announcement.status == "failed"
    stored = from_json(notice.payload)
    assert isinstance(stored, PostPayload) and stored.delivery_notice
    await deliverer.deliver_due()  # the notice fails for good too
    assert [row.status for row in await Outbox.all().order_by("id")] == ["failed", "failed"]


async def test_a_backlog_the_overall_budget_cannot_carry_is_said_not_silently_kept(db_url, caplog):
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g")
    for _ in range(30):
        await outbox.to_group(chat, post("The game is paused."))
    clock = ManualClock()
    deliverer = Deliverer({"test": FlakyAdapter([], RateLimits(overall=1.0))}, clock)
    assert await deliverer.deliver_due() == 1
    assert deliverer.budget.over() == ["test"]  # 30 messages, 30 s at one a second
    assert deliverer.budget.strain["test"].report() == {
        "waiting": 30, "drain_seconds": 30.0, "oldest_seconds": 0.0, "over_budget": True}
    assert "over the bot's budget" in caplog.text
    for _ in range(31):
        clock.advance(1.0)
        await deliverer.deliver_due()
    assert deliverer.budget.over() == []  # all sent: within budget again
    assert "within the bot's budget again" in caplog.text


async def test_a_backlog_the_chats_own_limits_hold_is_over_budget_by_its_oldest(db_url, caplog):
    """No overall limit to drain against, but a chat's own pace holds its messages: when the
    oldest of many (LATE_WAITING) has waited past LATE_SECONDS, players wait, and that is
    said too."""
    await open_db(db_url)
    chat = await Chat.create(platform="test", ref="g")
    for _ in range(31):
        await outbox.to_group(chat, post("The game is paused."))
    clock = ManualClock()
    deliverer = Deliverer({"test": FlakyAdapter([], RateLimits(per_chat=0.05))}, clock)
    assert await deliverer.deliver_due() == 1  # one a chat every 20 s
    assert deliverer.budget.over() == []
    clock.advance(16.0)
    assert await deliverer.deliver_due() == 0
    assert deliverer.budget.over() == ["test"]
    assert deliverer.budget.strain["test"].report()["oldest_seconds"] == 16.0
    assert "the oldest 16 s" in caplog.text
