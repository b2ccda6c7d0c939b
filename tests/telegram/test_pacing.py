"""The outbox's pacing through python-telegram-bot against the strict fake Bot API with
Telegram's flood limits on: a chat's burst goes back to back and then one a second, the
overall burst is shared by every chat, a 429's retry_after is obeyed in its chat (and in
all of them when several chats are refused at once), each chat's messages arrive in order
while the chats are sent to in parallel, an edit of a message already posted (a tally) goes
before its group's new posts and within the share of the group's minute kept for it, and a
send cut short by a crash is never repeated.

Time is a manual clock shared by both sides (the fake's flood control and the bot's
pacing): it moves only when the test moves it, so each round's sends are exact."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import web

from adapters.telegram.adapter import LIMITS, TelegramAdapter, TelegramSettings
from core.service.delivery.deliverer import Deliverer
from core.service.delivery.rate_limits import EDIT_SHARE
from core.service.messages.payloads import PostPayload, part, to_json
from core.service.ports.clock import ManualClock
from core.service.runtime import Runtime
from core.storage.models import Chat, Identity, Outbox

from .fake_botapi import FakeBotAPI, FakeGroup, FakeUser, FloodRules


class DistantBotAPI(FakeBotAPI):
    """Answers held back a random while, half `hold` to `hold` (a call takes effect at
    once): sends overlap."""

    def __init__(self, *args: Any, seed: int = 3, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rng = random.Random(seed)
        self.hold = 0.0  # the longest answer's delay, seconds
        self.in_flight = self.most_in_flight = 0

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        sending = request.match_info["method"] == "sendMessage"
        self.in_flight += sending
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            response = await super()._handle(request)
            if sending and self.hold:
                await asyncio.sleep(self.rng.uniform(self.hold / 2, self.hold))
            return response
        finally:
            self.in_flight -= sending


@asynccontextmanager
async def paced(db_url: str, flood: FloodRules | None = None,
                api_class: type[FakeBotAPI] = FakeBotAPI
                ) -> AsyncIterator[tuple[Any, ManualClock, Deliverer]]:
    """The fake Bot API with Telegram's flood limits (or `flood`'s) and the bot's runtime
    without its loop, on one manual clock: the test runs the delivery rounds."""
    clock = ManualClock()
    api = api_class(flood=flood or FloodRules(), clock=clock.now)
    await api.start()
    adapter = TelegramAdapter(TelegramSettings(token=api.token, base_url=api.base_url,
                                               poll_timeout=1, limits=LIMITS))
    runtime = Runtime(db_url, [adapter], clock=clock)
    try:
        await runtime.open(loop=False)
        await runtime.connect()
        assert runtime.deliverer is not None
        yield api, clock, runtime.deliverer
    finally:
        await runtime.stop()
        await api.stop()


async def readers(api: FakeBotAPI, count: int) -> list[tuple[FakeUser, Identity]]:
    """People who opened their private chat with the bot."""
    found = []
    for n in range(count):
        user = api.user(f"Reader{n}")
        user.started = True
        found.append((user, await Identity.create(platform="telegram", ref=str(user.id),
                                                  name=user.first_name)))
    return found


async def write(rows: list[tuple[str, bool, Identity | None, str]]) -> None:
    """Outbox rows at once: (chat ref, private, reader, text)."""
    await Outbox.bulk_create([
        Outbox(platform="telegram", chat_ref=ref, private=private, identity=person,
               payload=to_json(PostPayload((part(text),)))) for ref, private, person, text in rows])


def texts(api: FakeBotAPI, chat: FakeUser | FakeGroup) -> list[str]:
    return [m.text for m in api.messages(chat)]


async def test_a_chats_burst_goes_back_to_back_then_one_a_second(db_url):
    async with paced(db_url) as (api, clock, deliverer):
        [(user, person)] = await readers(api, 1)
        await write([(person.ref, True, person, f"card {n}") for n in range(5)])
        assert await deliverer.deliver_due() == 3  # Telegram's burst: three at once
        assert await deliverer.deliver_due() == 0
        clock.advance(1.0)
        assert await deliverer.deliver_due() == 1
        clock.advance(1.0)
        assert await deliverer.deliver_due() == 1
        assert texts(api, user) == [f"card {n}" for n in range(5)]
        assert api.flood_rejections == []


async def test_the_overall_burst_is_shared_by_every_chat_and_a_group_keeps_its_minute(db_url):
    async with paced(db_url) as (api, clock, deliverer):
        people = await readers(api, 40)
        group = api.group("Game night", members=[people[0][0]], bot_admin=True,
                          supergroup=True)
        await Chat.create(platform="telegram", ref=str(group.id))
        await write([(str(group.id), False, None, f"chatter {n}") for n in range(25)])
        await write([(person.ref, True, person, "your role") for _, person in people])
        sent = await deliverer.deliver_due()
        assert sent == LIMITS.overall_burst
        total = sent
        for _ in range(200):  # a tenth of a second at a time: 3 of 30 a second
            clock.advance(0.1)
            total += await deliverer.deliver_due()
        posts = LIMITS.per_group_minute - round(LIMITS.per_group_minute * EDIT_SHARE)
        assert total == 40 + posts  # every reader; the group its minute, less the edits' share
        assert texts(api, group) == [f"chatter {n}" for n in range(posts)]
        clock.advance(60)
        while await deliverer.deliver_due():
            clock.advance(1.0)
        assert texts(api, group) == [f"chatter {n}" for n in range(25)]
        assert api.flood_rejections == []


async def test_a_429s_retry_after_is_obeyed_in_its_chat_and_when_in_several_in_all(db_url):
    # a Telegram stricter than the bot believes: one message a second in a chat, no burst
    async with paced(db_url, flood=FloodRules(burst=1)) as (api, clock, deliverer):
        (ann, ann_id), (bob, bob_id), (cid, cid_id) = await readers(api, 3)
        await write([(ann_id.ref, True, ann_id, "one"), (ann_id.ref, True, ann_id, "two"),
                     (ann_id.ref, True, ann_id, "three")])
        assert await deliverer.deliver_due() == 1  # "two" refused: retry after 1
        assert len(api.flood_rejections) == 1
        assert await deliverer.deliver_due() == 0  # not asked again before its time
        assert len(api.flood_rejections) == 1
        clock.advance(1.0)
        assert await deliverer.deliver_due() == 1
        clock.advance(1.0)
        assert await deliverer.deliver_due() == 1
        assert texts(api, ann) == ["one", "two", "three"]

        # two chats refused at once: Telegram's overall budget is spent, nothing goes anywhere
        api.flood = FloodRules(overall_per_second=1.0, per_chat_per_second=None)
        await write([(bob_id.ref, True, bob_id, "b1"), (cid_id.ref, True, cid_id, "c1")])
        clock.advance(5.0)
        assert await deliverer.deliver_due() == 1  # one of them went, the other was refused
        await write([(ann_id.ref, True, ann_id, "four"), (bob_id.ref, True, bob_id, "b2"),
                     (cid_id.ref, True, cid_id, "c2")])
        clock.advance(0.5)
        await deliverer.deliver_due()  # a second refusal, in another chat
        refused = len(api.flood_rejections)
        calls = len(api.calls)
        clock.advance(0.2)
        assert await deliverer.deliver_due() == 0  # the platform is held
        assert (len(api.calls), len(api.flood_rejections)) == (calls, refused)
        for _ in range(20):
            clock.advance(1.0)
            await deliverer.deliver_due()
        assert texts(api, ann)[-1] == "four"
        assert texts(api, bob) == ["b1", "b2"] and texts(api, cid) == ["c1", "c2"]


async def test_chats_are_sent_to_in_parallel_each_in_order(db_url):
    async with paced(db_url, api_class=DistantBotAPI) as (api, clock, deliverer):
        api.hold = 0.05
        people = await readers(api, 12)
        await write([(person.ref, True, person, f"{n}") for n in range(6)
                     for _, person in people])
        for _ in range(10):
            await deliverer.deliver_due()
            clock.advance(1.0)
        for user, _ in people:
            assert texts(api, user) == [str(n) for n in range(6)]
        assert api.most_in_flight > 1  # in parallel
        assert api.flood_rejections == []


async def test_a_crash_mid_send_never_sends_a_message_twice(db_url):
    async with paced(db_url, api_class=DistantBotAPI) as (api, clock, deliverer):
        api.hold = 20.0  # the answers take long: the process dies with ten sends under way
        people = await readers(api, 10)
        await write([(person.ref, True, person, f"{n}") for n in range(2)
                     for _, person in people])
        crashed = asyncio.create_task(deliverer.deliver_due())
        while api.in_flight < 10:
            await asyncio.sleep(0.01)
        crashed.cancel()  # the round dies mid-send (its grace too short): rows stay `sending`
        await asyncio.gather(crashed, return_exceptions=True)
        assert await Outbox.filter(status="sending").count() == 10
        api.hold = 0.0
        after = Deliverer(deliverer.adapters, clock)  # the next process
        for _ in range(5):
            clock.advance(1.0)
            await after.deliver_due()
        for user, _ in people:
            assert texts(api, user) == ["0", "1"]  # the cut send arrived once, never again
        assert await Outbox.filter(status="unknown").count() == 10
        assert await Outbox.filter(status="sent").count() == 10


async def test_a_tally_edit_goes_before_the_groups_new_posts_and_keeps_a_share_of_its_minute(
        db_url):
    async with paced(db_url) as (api, clock, deliverer):
        group = api.group("Game night", members=[], bot_admin=True, supergroup=True)
        await Chat.create(platform="telegram", ref=str(group.id))
        ref = str(group.id)

        async def tally(votes: int) -> None:
            await Outbox.create(platform="telegram", chat_ref=ref, private=False, payload=to_json(
                PostPayload((part(f"votes so far: {votes}"),), replace="tally-1")))

        await tally(0)
        assert await deliverer.deliver_due() == 1  # posted: its id is known
        await write([(ref, False, None, f"chatter {n}") for n in range(25)])
        await tally(1)  # written after the posts, it changes a message already there
        clock.advance(1.0)
        await deliverer.deliver_due()
        first = [(v["event"], v["text"]) for v in api.history(group)][1]
        assert first == ("edited", "votes so far: 1")  # not behind twenty-five posts
        for _ in range(30):
            clock.advance(1.0)
            await deliverer.deliver_due()
        posts = LIMITS.per_group_minute - round(LIMITS.per_group_minute * EDIT_SHARE)
        # the minute's posts' share: the tally's post, its edit, the chatter before the rest
        assert len(texts(api, group)) == 1 + posts - 2
        await tally(2)  # the posts wait for the minute; the share kept lets the tally go
        clock.advance(1.0)
        assert await deliverer.deliver_due() == 1
        assert texts(api, group)[0] == "votes so far: 2"
        clock.advance(60.0)
        while await deliverer.deliver_due():
            clock.advance(1.0)
        assert texts(api, group) == ["votes so far: 2"] + [f"chatter {n}" for n in range(25)]
        assert api.flood_rejections == []
