"""A bot started before its database (it waits for it), then a 15-second database outage
under a running game, with votes sent and a deadline (and its reminder) coming due inside
it. Afterwards:
- the votes sent before the deadline count: applied before the window closed, each once;
- the reminder that came due while the database was away is skipped, not sent;
- /healthz answered 503 during the outage and 200 (caught up) after it;
- the log has one line when the database went away and one when it came back, and no
  traceback."""

from __future__ import annotations

import asyncio
import json
import time

from rulesets.changelings.voice import OWN

from .play import Bot, Database

OUTAGE = 15.0


async def test_an_outage_under_a_running_game_loses_nothing_and_repeats_nothing(
        api, postgres, tmp_path):
    url = await postgres.new_database()
    db = Database(url)
    bot = Bot(api, url, tmp_path)
    await postgres.stop_async()  # the bot starts before its database: it waits for it
    await bot.start(wait=False)
    await asyncio.sleep(1.5)
    assert bot.process is not None and bot.process.returncode is None
    await postgres.start_async()
    await bot.healthy()
    try:
        users, group = await bot.sign_up()
        # day 1 (eight players): the mayor's election, a vote with a deadline
        day = await db.wait("SELECT \"window\" FROM deadline WHERE state = 'pending'")
        await api.settle(quiet=0.5, timeout=20)
        alive = [u for u in users if group.can_send(u)]
        target, voters = alive[-1], alive[:5]

        # the day's deadline falls inside the outage, its reminder too
        now = time.time()
        reminder = "kind = 'remind' AND state = 'pending'"
        await db.fetch("UPDATE deadline SET due_at = $1 WHERE state = 'pending'", now + 4)
        await db.fetch(f"UPDATE deadline SET due_at = $1 WHERE {reminder}", now + 3)
        reminders = await db.fetch(f"SELECT id FROM deadline WHERE {reminder}")
        await postgres.stop_async()
        down_at = time.time()
        await asyncio.sleep(1.0)
        for voter in voters:  # before the deadline, while the database is away
            await bot.say(voter, f"/vote {target.first_name}", group)
        await bot.say(users[0], "/status", group)
        seen_down = None
        while time.time() - down_at < OUTAGE:
            seen = await bot.health()
            if seen is not None and seen[0] == 503:
                seen_down = seen
            await asyncio.sleep(0.5)
        metrics_down = await bot.metrics()
        await postgres.start_async()
        up_at = time.time()
        await api.wait_for(lambda: api.pending_updates == 0, timeout=30)
        applied_after = time.time() - up_at
        await db.wait("SELECT 1 FROM log_entry WHERE command->>'type' = 'Close'", timeout=30)
        healthy = None
        while healthy is None or healthy[0] != 200:
            healthy = await bot.health()
            await asyncio.sleep(0.1)
            assert time.time() - up_at < 30, healthy
        healthy_after = time.time() - up_at
        await api.settle(quiet=1.0, timeout=30)
        metrics_up = await bot.metrics()
        print(f"\nqueued updates applied {applied_after:.2f} s after the database was back, "
              f"/healthz 200 after {healthy_after:.2f} s")
    finally:
        code = await bot.stop()
    assert code == 0

    assert seen_down is not None, "/healthz never said 503 during the outage"
    assert seen_down[1]["database"] is False and seen_down[1]["ok"] is False
    assert "nightfall_database_up 0.0" in metrics_down
    assert healthy[1]["caught_up"] is True and healthy[1]["waiting"] == []
    assert "nightfall_database_up 1.0" in metrics_up
    assert "nightfall_database_outages_total 1.0" in metrics_up

    log = [(row["seq"], json.loads(row["command"])) for row in await db.log()]
    votes = [(seq, c) for seq, c in log if c["type"] == "Vote"]
    closes = [seq for seq, c in log if c["type"] == "Close"]
    assert len(votes) == len(voters)  # each once
    assert len(closes) == 1
    assert all(seq < closes[0] for seq, _ in votes)  # before the window closed
    assert await db.fetch("SELECT 1 FROM deadline WHERE \"window\" = $1 AND kind = 'close' "
                          "AND state = 'fired'", day[0]["window"])
    processed = await db.fetch("SELECT count(*) AS n FROM processed_update")
    assert processed[0]["n"] == bot.sent  # every update applied once
    for row in reminders:
        state = await db.fetch("SELECT state FROM deadline WHERE id = $1", row["id"])
        assert state[0]["state"] == "fired"
    said = [m.text for u in users for m in api.sent_to(u)] + [m.text for m in group.messages()]
    assert not [t for t in said if "your vote is missing" in t]
    assert not [t for t in said if "There is no vote right now" in t]
    announced = {text.format(name=target.first_name) for text in OWN["NEW_MAYOR"]}
    elected = [m.text for m in group.messages() if m.text in announced]
    assert len(elected) == 1  # the queued votes counted: the mayor they chose

    lines = bot.log_lines()
    print("\n".join(line for line in lines if "database" in line))
    assert len([line for line in lines if "database unreachable" in line]) == 1
    assert len([line for line in lines if "database is back" in line]) == 1
    assert not [line for line in lines if "Traceback" in line]
