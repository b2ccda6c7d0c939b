"""A homeserver outage loses nothing: the real Matrix adapter (matrix-nio) plays a game on the
real Synapse through a reverse proxy of the test's own (outage_proxy.py), which goes down
just as the role cards are being sent and stays down for eleven minutes of the bot's clock —
every request answered by the proxy's 502 page or a dropped connection, a few by a 429
M_LIMIT_EXCEEDED, the sync's long poll cut off and refused too; the first role card and the
first sends after the outage reach Synapse but their answers are lost. The bot's clock is
moved forward in steps (so the outage does not take eleven real minutes); the runtime's loop
runs throughout, with its deadlines and deliveries, and /metrics says the platform rests.

When the proxy is back, everything arrives, as the players' own clients read their rooms from
Synapse: every role card, every announcement, once each (a send retried under its
transaction id is not posted again), each room's messages in the order they were written;
nothing was given up; the bot's sync resumed (a vote sent afterwards is applied), and
/metrics says the platform answers again."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from typing import Any

from aiohttp import ClientSession

from adapters.matrix.adapter import MatrixAdapter
from adapters.matrix.protocol.polls import answers as poll_answers
from core.health import HealthServer
from core.service.messages.payloads import from_json
from core.storage.models import Outbox

from ..sent import plain_messages
from .harness import Player, Table, event_texts, living, open_poll, open_table, sign_up
from .outage_proxy import Proxy, kind

OUTAGE = 11 * 60.0  # seconds of the bot's clock
STEP = 20.0  # the clock moves this far every real tenth of a second
RESTING = re.compile(r'^nightfall_platform_resting\{platform="matrix"\} (\S+)$', re.M)


async def test_a_long_homeserver_outage_while_the_role_cards_go_out_loses_nothing(
        synapse, register, clients, tmp_path):
    proxy = Proxy(synapse.url)
    await proxy.start()
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.sqlite3'}",
                             8, homeserver=proxy.url)
    health = HealthServer(table.runtime, "127.0.0.1", 0)
    await health.start()
    try:
        await sign_up(table, "changelings", "!option random_lovers false", start=False)
        # the group and the private rooms of the seven who joined (the host's is made with
        # his role card, in the outage)
        rooms = {table.room: table.host, **{p.dm: p for p in table.players.values() if p.dm}}
        assert len(rooms) == 8
        seen = {room: len(player.from_bot(room)) for room, player in rooms.items()}
        written = await Outbox.all().order_by("-id").first()
        assert await resting(health) == 0
        down = proxy.go_down(OUTAGE, table.clock.now, starting_with=lambda request: kind(
            request) == "send" and any(f"/rooms/{room}/" in request.path
                                       for room in rooms if room != table.room))
        await table.host.say(table.room, "!startgame")
        await asyncio.wait_for(down.began.wait(), 30)  # the first role card goes out
        passed, rested = 0.0, []
        while passed < OUTAGE + 2 * STEP:  # the outage, and a little after it
            await asyncio.sleep(0.1)
            table.clock.advance(STEP)
            passed += STEP
            if not down.over:
                rested.append(await resting(health))
        assert down.over and "sync" in down.refused, down.refused
        assert 1 in rested, rested  # /metrics said so while it lasted
        how = Counter(down.answers)
        assert how["502"] and how["drop"] and how["429"], how
        tries = Counter(down.refused)
        assert 3 <= tries["send"] < OUTAGE / STEP, tries  # a probe per rest at most

        table.clock.advance(60)  # the longest back-off ends
        table.runtime.wake.set()
        await table.settle(timeout=60)
        assert await resting(health) == 0  # it answers again
        assert down.lose_after == 0 and Counter(down.answers)["lost"] == 3, down.answers

        rooms.update({p.dm: p for p in table.players.values() if p.dm})
        assert len(rooms) == 9
        rows = await Outbox.filter(id__gt=written.id if written else 0).order_by("id")
        assert rows and {r.status for r in rows} <= {"sent", "superseded"}, \
            Counter(r.status for r in rows)
        cards = {r.chat_ref for r in rows if r.private and getattr(
            from_json(r.payload), "seq", None) == 0}
        assert cards == {p.user_id for p in table.players.values()}  # everybody's role card
        assert len(proxy.posted) > len(set(proxy.posted))  # lost answers were sent again …
        for room, player in rooms.items():  # … and are in the rooms once
            await arrived_once_in_order(rows, room, player, table, seen.get(room, 0))

        await a_vote_is_applied(table)
    finally:
        await health.stop()
        await table.stop()
        await proxy.stop()


async def test_a_rate_limited_sync_is_not_the_catch_up(synapse, register, clients, tmp_path):
    """After a start (or the database's return) deadlines wait until the first sync since
    the stored token was applied. A sync answered with a 429 applied nothing: the bot waits
    and syncs again, still behind, and only a sync that was read catches it up."""
    proxy = Proxy(synapse.url)
    await proxy.start()
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.sqlite3'}",
                             2, homeserver=proxy.url)
    try:
        catchup = table.runtime.catchup
        for _ in range(200):  # the start's own catch-up done: a long poll is under way
            if not catchup.is_behind("matrix"):
                break
            await asyncio.sleep(0.05)
        behind: list[bool] = []
        proxy.limit_syncs = 2
        catchup.hold()  # as a start does
        proxy.watch = lambda request: behind.append(catchup.is_behind("matrix")) \
            if kind(request) == "sync" else None
        await table.host.say(table.room, "hello")  # ends the long poll under way
        for _ in range(200):
            if len(behind) > 3:
                break
            await asyncio.sleep(0.05)
        assert behind[:4] == [True, True, True, False], behind  # 429, 429, read; caught up
        assert catchup.waiting == []
    finally:
        await table.stop()
        await proxy.stop()


async def resting(health: HealthServer) -> float:
    """What /metrics says of the Matrix platform."""
    async with ClientSession() as session, \
            session.get(f"http://127.0.0.1:{health.port}/metrics") as response:
        found = RESTING.search(await response.text())
    assert found is not None
    return float(found.group(1))


async def arrived_once_in_order(rows: list[Outbox], room: str, player: Player, table: Table,
                                skip: int) -> None:
    """The outbox's plain messages for one room (not the versions of a message edited in
    place, a ballot's or a prompt's) were each posted exactly once, in the order they were
    written, as the player reads the room."""
    ref = room if room == table.room else player.user_id
    wanted = await plain_messages(rows, ref, MatrixAdapter.wording)
    posted = []
    for event in player.from_bot(room)[skip:]:
        if event.get("type") != "m.room.message" or "m.new_content" in event["content"]:
            continue
        body = event_texts(event)[0]
        posted += [text for text in wanted if body == text or body.startswith(text + "\n\n")]
    assert posted == wanted, (room, posted, wanted)


async def a_vote_is_applied(table: Table) -> None:
    """The sync runs again: a poll answer sent now is read and counted."""
    poll: dict[str, Any] | None = None
    for _ in range(10):
        poll = open_poll(table)
        if poll is not None:
            break
        await table.let_time_pass(120)
    assert poll is not None, "no vote opened after the outage"
    alive = await living(table)
    voter, target = [table.players[name] for name in list(alive)[:2]]
    answer = next(aid for aid, label in poll_answers(poll["content"]) if label == target.name)
    await voter.answer(table.room, poll["event_id"], answer)
    await table.settle()
    row = await table.game_row()
    assert row is not None and table.runtime.service is not None
    state = (await table.runtime.service.games.load(row)).state
    assert state.votes.get(alive[voter.name]) == alive[target.name], state.votes
