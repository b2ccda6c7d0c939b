"""The outbox's delivery rate while a backlog waits: `nightfall run`'s loop (a `Runtime` with
the real Telegram adapter, PTB over HTTP) against the fake Bot API with Telegram's flood
limits switched on (429s as Telegram sends them), each answer held back by a round trip.

A backlog is written at once: `--private` private chats with `--each` messages apiece (role
cards, prompts: urgent) and `--groups` group chats with `--each` messages apiece (chatter),
then the loop delivers it. Printed: messages per second from the first send to the last,
the 429s, and whether each chat's messages arrived in order; nothing is asserted (speed is
measured here, never asserted in tests).
Run: `python bench/outbox_rate.py [--private 300] [--groups 20] [--each 3] [--rtt 0.15]
[--postgres URL]`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adapters.telegram.adapter import LIMITS, TelegramAdapter, TelegramSettings
from bench.service import reset_postgres
from core.service.messages.payloads import PostPayload, part, to_json
from core.service.runtime import Runtime
from core.storage.models import Chat, Identity, Outbox
from core.storage.states import OutboxState
from tests.telegram.fake_botapi import FakeBotAPI, FloodRules


def post(key: str, urgent: bool = False) -> PostPayload:
    return PostPayload((part(key),), urgent=urgent)


class DistantBotAPI(FakeBotAPI):
    """The fake Bot API, its answers held back by a round trip (uniform within ±50 %)."""

    rtt = 0.0

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        response = await super()._handle(request)
        if self.rtt and request.match_info["method"] != "getUpdates":
            await asyncio.sleep(random.uniform(0.5, 1.5) * self.rtt)
        return response


async def measure(private: int, groups: int, each: int, rtt: float, postgres: str | None) -> None:
    api = DistantBotAPI(flood=FloodRules())
    api.rtt = rtt
    await api.start()
    users = [api.user(f"P{i}") for i in range(private)]
    rooms = [api.group(f"G{i}", members=users[:1], bot_admin=True, supergroup=True)
             for i in range(groups)]
    with tempfile.TemporaryDirectory() as folder:
        adapter = TelegramAdapter(TelegramSettings(token=api.token, base_url=api.base_url,
                                                   poll_timeout=1, limits=LIMITS))
        if postgres:
            await reset_postgres(postgres)
        runtime = Runtime(postgres or f"sqlite://{folder}/rate.sqlite3", [adapter])
        await runtime.start()
        for user in users:
            await user.start()  # the bot may write to them
        people = [(await Identity.get_or_create(platform="telegram", ref=str(u.id),
                                               defaults={"name": u.first_name}))[0]
                  for u in users]
        chats = [(await Chat.get_or_create(platform="telegram", ref=str(g.id)))[0] for g in rooms]
        await asyncio.sleep(1.0)
        while await Outbox.filter(status__in=[OutboxState.PENDING,  # the /start answers first
                                              OutboxState.SENDING]).exists():
            await asyncio.sleep(0.2)
        before = len(api.calls)
        rejected = len(api.flood_rejections)
        rows = []
        for n in range(each):  # interleaved, as games write them; all at once
            rows += [Outbox(platform="telegram", chat_ref=person.ref, private=True,
                            identity=person, payload=to_json(post(f"card {n}", urgent=True)))
                     for person in people]
            rows += [Outbox(platform="telegram", chat_ref=chat.ref, private=False,
                            payload=to_json(post(f"chatter {n}"))) for chat in chats]
        await Outbox.bulk_create(rows)
        total = each * (private + groups)
        runtime.wake.set()
        started = time.monotonic()
        while await Outbox.filter(status__in=[OutboxState.PENDING,
                                              OutboxState.SENDING]).exists():
            await asyncio.sleep(0.05)
        took = time.monotonic() - started
        sends = [p for name, p in api.calls[before:] if name == "sendMessage"
                 and p["text"].startswith(("card", "chatter"))]
        in_order = all([int(p["text"].split()[-1]) for p in sends if str(p["chat_id"]) == key]
                       == sorted(int(p["text"].split()[-1]) for p in sends
                                 if str(p["chat_id"]) == key)
                       for key in {str(p["chat_id"]) for p in sends})
        print(f"{total} messages ({private} private chats, {groups} groups, {each} each), "
              f"round trip {rtt * 1000:.0f} ms: {took:.1f} s, {len(sends) / took:.1f} msg/s, "
              f"429s {len(api.flood_rejections) - rejected}, each chat in order: {in_order}")
        await runtime.stop()
    await api.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--private", type=int, default=300)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--each", type=int, default=3)
    parser.add_argument("--rtt", type=float, default=0.15)
    parser.add_argument("--postgres", help="a database of its own (emptied), e.g. "
                        "postgresql://postgres@127.0.0.1:5432/pacing_bench; else SQLite")
    args = parser.parse_args()
    asyncio.run(measure(args.private, args.groups, args.each, args.rtt, args.postgres))


if __name__ == "__main__":
    main()
