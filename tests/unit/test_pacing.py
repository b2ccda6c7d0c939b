"""The outbox's pacing rules on their own: token buckets with bursts read at each send, a
group's sliding minute counted by the answers' times, a flood limit held per chat and (in
several chats at once) for the platform; and a round's lanes: each chat's rows in order
under parallel sends, what players act on first, no more sends at once than the platform
takes, an edit of a message already posted before its chat's new posts, a group's minute
keeping a share for such edits. The sends are stand-ins (no platform is involved): the
rules, not a platform."""

from __future__ import annotations

import asyncio
import random

import pytest

from core.service import RateLimits, Wording
from core.service.delivery.lanes import Outcome, Pacing, Round
from core.service.delivery.rate_limits import Bucket, GroupMinute, RateLimiter
from core.service.messages.payloads import BallotPayload, Payload, PostPayload, part
from core.storage.models import Outbox

TELEGRAM = RateLimits(per_chat=1.0, overall=30.0, per_group_minute=20, chat_burst=3,
                      overall_burst=10)


class Platform:
    platform = "tg"
    limits = TELEGRAM
    wording = Wording()


def test_a_bucket_lets_its_burst_go_back_to_back_then_paces_at_its_rate():
    bucket = Bucket(rate=1.0, capacity=3, now=0.0)
    for _ in range(3):
        assert bucket.wait(0.0) == 0
        bucket.take(0.0)
    assert bucket.wait(0.0) == pytest.approx(1.0)
    assert bucket.wait(0.5) == pytest.approx(0.5)  # read at the time of each send
    assert bucket.wait(1.0) == 0
    bucket.take(1.0)
    assert bucket.wait(100.0) == 0 and bucket.tokens == 3  # never more than its burst


def test_a_bucket_counts_nothing_refilled_while_a_send_was_under_way():
    bucket = Bucket(rate=1.0, capacity=1, now=0.0)
    bucket.take(0.0)  # the send starts
    bucket.settle(0.8)  # its answer: the platform may have counted it only now
    assert bucket.wait(1.0) == pytest.approx(0.8)


def test_a_groups_minute_is_a_sliding_window_of_the_answers():
    minute = GroupMinute(20)
    for second in range(20):
        assert minute.wait(float(second)) == 0
        minute.record(float(second), 1)
    assert minute.wait(20.0) == pytest.approx(40.0)  # until the first is a minute old
    assert minute.wait(60.0) == 0
    minute.record(60.0, 3)  # a text in three parts
    assert minute.wait(60.5) == pytest.approx(2.5)


def test_the_limiter_bursts_per_chat_and_overall_and_reads_the_time_of_each_send():
    limiter, tg = RateLimiter(), Platform()
    sent = 0
    now = 0.0
    for chat in range(20):  # twenty private chats at once: the overall burst decides
        while limiter.wait(tg, str(chat), True, now) == 0:
            limiter.begin(tg, str(chat), now)
            limiter.end(tg, str(chat), True, now)
            sent += 1
    assert sent == 10  # the overall burst
    assert limiter.platform_wait(tg, now) == pytest.approx(1 / 30)
    now = 1 / 30  # chats 0-2 spent their bursts, chat 3 one message of its three
    assert limiter.wait(tg, "0", True, now) == pytest.approx(1 - now)
    assert limiter.wait(tg, "3", True, now) == 0
    limiter.begin(tg, "3", now)
    limiter.end(tg, "3", True, now)
    assert limiter.wait(tg, "0", True, 10.0) == 0
    for _ in range(3):  # chat 0's burst is whole again after three seconds
        assert limiter.wait(tg, "0", True, 10.0 + _ / 10) == 0
        limiter.begin(tg, "0", 10.0 + _ / 10)
        limiter.end(tg, "0", True, 10.0 + _ / 10)
    assert limiter.wait(tg, "0", True, 10.3) == pytest.approx(0.7)  # refilled meanwhile: 0.3


def test_the_parts_of_a_long_text_spend_the_budgets_of_every_part():
    limiter, tg = RateLimiter(), Platform()
    limiter.begin(tg, "g", 0.0)
    limiter.end(tg, "g", False, 0.0, parts=3)
    assert limiter.wait(tg, "g", False, 0.0) == pytest.approx(1.0)  # 3 - 3 + 0 tokens
    assert limiter.wait(tg, "other", True, 0.0) == 0
    assert limiter.overall["tg"].tokens == 7


def test_a_flood_limit_holds_its_chat_and_in_two_chats_at_once_the_platform():
    limiter, tg = RateLimiter(), Platform()
    assert not limiter.hold("tg", "a", until=15.0, now=0.0)
    assert limiter.wait(tg, "a", True, 5.0) == pytest.approx(10.0)
    assert limiter.wait(tg, "b", True, 5.0) == 0  # one chat paced: the others go on
    assert limiter.hold("tg", "b", until=5.4 + 3, now=5.4) is False  # 5 s later: no spread
    assert limiter.hold("tg", "c", until=6.0 + 3, now=6.0)  # two chats within a second
    assert limiter.wait(tg, "d", True, 6.5) == pytest.approx(2.5)
    assert limiter.wait(tg, "d", True, 9.0) == 0
    assert not limiter.hold("tg", "e", until=9.5 + 60, now=9.5)  # long waits, in two chats:
    assert limiter.hold("tg", "f", until=9.8 + 60, now=9.8)
    assert limiter.wait(tg, "e", True, 20.0) == pytest.approx(49.5)  # whole in their chats,
    assert limiter.wait(tg, "g", True, 14.0) == pytest.approx(0.8)  # at most 5 s for others
    assert limiter.wait(tg, "g", True, 15.0) == 0


def row(id_: int, chat: str, urgent: bool = False) -> tuple[Outbox, PostPayload]:
    return (Outbox(id=id_, platform="tg", chat_ref=chat, private=True, payload={}),
            PostPayload((part(f"text {id_}"),), urgent=urgent))


class Stand:
    """Sends that take a random while and a budget of `tokens` sends (none refilled)."""

    def __init__(self, tokens: int, parallel: int, seed: int = 1,
                 edits: frozenset[int] = frozenset()) -> None:
        self.tokens = tokens
        self.edits = edits  # the rows that edit a message already posted
        self.width = parallel
        self.rng = random.Random(seed)
        self.order: list[int] = []
        self.started: list[int] = []
        self.in_flight = self.most = 0
        self.chats_in_flight: set[str] = set()

    def pacing(self) -> Pacing:
        return Pacing(lambda row, now: 0.0, lambda platform, now: 0.0 if self.tokens else 1.0,
                      self.begin, self.send, lambda platform: self.width, lambda: 0.0,
                      lambda platform: True, lambda row: row.id in self.edits)

    def begin(self, row: Outbox, now: float) -> None:
        self.tokens -= 1
        self.started.append(row.id)

    async def send(self, row: Outbox) -> Outcome:
        assert row.chat_ref not in self.chats_in_flight  # one send per chat at a time
        self.chats_in_flight.add(row.chat_ref)
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        await asyncio.sleep(self.rng.uniform(0, 0.01))
        self.in_flight -= 1
        self.chats_in_flight.discard(row.chat_ref)
        self.order.append(row.id)
        return Outcome(sent=True)


async def test_each_chats_rows_go_in_order_while_chats_go_in_parallel():
    rows = [row(i, f"chat{i % 7}") for i in range(1, 71)]
    payloads: dict[int, Payload] = {r.id: p for r, p in rows}
    stand = Stand(tokens=1000, parallel=5)
    sent = await Round(stand.pacing(), [r for r, _ in rows], payloads, set()).run()
    assert sent == 70
    for chat in range(7):
        ids = [i for i in stand.order if i % 7 == chat]
        assert ids == sorted(ids)
    assert stand.most == 5  # parallel, never wider than the platform takes


async def test_what_players_act_on_goes_before_chatter_when_the_budget_is_scarce():
    rows = [row(1, "g1"), row(2, "g2"), row(3, "p1", urgent=True), row(4, "g3"),
            row(5, "p2", urgent=True)]
    payloads: dict[int, Payload] = {r.id: p for r, p in rows}
    stand = Stand(tokens=3, parallel=1)
    sent = await Round(stand.pacing(), [r for r, _ in rows], payloads, {("tg", "g2")}).run()
    assert sent == 3
    assert stand.started == [3, 5, 1]  # the prompts first, then the oldest chatter


async def test_a_groups_ballot_goes_before_the_role_cards_written_before_it():
    """A game's start on Matrix (0.2 messages a second): the election's ballot, written after
    every role card, reaches the whole group before the cards trickle out (issue 32)."""
    cards = [row(i, f"p{i}", urgent=True) for i in range(1, 13)]
    ballot = (Outbox(id=13, platform="tg", chat_ref="g", private=False, payload={}),
              BallotPayload((part("vote"),), (), "ballot", urgent=True))
    chatter = (Outbox(id=14, platform="tg", chat_ref="g2", private=False, payload={}),
               PostPayload((part("chatter"),)))
    rows = [*cards, ballot, chatter]
    payloads: dict[int, Payload] = {r.id: p for r, p in rows}
    stand = Stand(tokens=3, parallel=1)
    assert await Round(stand.pacing(), [r for r, _ in rows], payloads, set()).run() == 3
    assert stand.started == [13, 1, 2]  # the ballot, then the oldest cards; chatter last


async def test_an_edit_of_a_posted_message_goes_before_its_chats_new_posts_which_keep_order():
    rows = [row(1, "g1"), row(2, "g1"), row(3, "g1"), row(4, "g1"), row(5, "g2")]
    payloads: dict[int, Payload] = {r.id: p for r, p in rows}
    stand = Stand(tokens=1000, parallel=1, edits=frozenset({4}))
    sent = await Round(stand.pacing(), [r for r, _ in rows], payloads, set()).run()
    assert sent == 5
    assert stand.started == [4, 1, 2, 3, 5]  # the edit first, then the oldest, in order
    assert [i for i in stand.order if i in (1, 2, 3)] == [1, 2, 3]


def test_a_groups_minute_keeps_a_share_for_edits_in_place_that_new_posts_never_spend():
    limiter, tg = RateLimiter(), Platform()
    now = 0.0
    posts = 0
    while limiter.wait(tg, "group", False, now) == 0:  # new posts, one a second
        limiter.begin(tg, "group", now)
        limiter.end(tg, "group", False, now)
        posts += 1
        now += 1.0
    assert posts == 14  # 20 a minute, 6 of them kept
    assert limiter.wait(tg, "group", False, now) == pytest.approx(60 - now)
    assert limiter.wait(tg, "group", False, now, edit=True) == 0  # the tally still goes
    for _ in range(6):
        assert limiter.wait(tg, "group", False, now, edit=True) == 0
        limiter.begin(tg, "group", now)
        limiter.end(tg, "group", False, now)
        now += 1.0
    assert limiter.wait(tg, "group", False, now, edit=True) > 0  # the minute is whole
    assert limiter.wait(tg, "private", True, now) == 0  # private chats have no minute
