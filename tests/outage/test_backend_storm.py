"""The server terminates the bot's backends every 0.03 s for 15 s while players keep
sending commands. A failed BEGIN, COMMIT or ROLLBACK must never leave a task pointing at a
lost connection ("connection has been released back to the pool" forever after): once the
storm is over, every update is applied (once), new ones at once, and /healthz says ok."""

from __future__ import annotations

import asyncio
import os
import time

import asyncpg

from .play import Bot, Database

STORM = float(os.environ.get("NIGHTFALL_STORM_SECONDS", "15"))
EVERY = 0.03


async def storm(server: str, database: str, seconds: float) -> int:
    """Terminate every backend of `database`, every `EVERY` seconds; how many were killed."""
    killed = 0
    conn = await asyncpg.connect(server)
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            rows = await conn.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = $1 AND pid <> pg_backend_pid()", database)
            killed += len(rows)
            await asyncio.sleep(EVERY)
    finally:
        await conn.close()
    return killed


async def test_a_storm_of_killed_backends_leaves_the_bot_working(api, postgres, tmp_path):
    url = await postgres.new_database()
    db = Database(url)
    bot = Bot(api, url, tmp_path)
    await bot.start()
    try:
        users, group = await bot.sign_up()
        await db.wait("SELECT 1 FROM deadline WHERE state = 'pending'")
        await api.wait_for(lambda: api.pending_updates == 0, timeout=20)
        killing = asyncio.create_task(storm(postgres.server, url.rsplit("/", 1)[1], STORM))
        began = time.time()
        while not killing.done():  # the players go on meanwhile
            for user in users:
                await bot.say(user, f"/vote {users[(users.index(user) + 1) % 8].first_name}",
                              group)
                await asyncio.sleep(0.2)
                if killing.done():
                    break
        killed = await killing
        over = time.time()
        await api.wait_for(lambda: api.pending_updates == 0, timeout=30)
        caught_up = time.time() - over
        await bot.say(users[0], "/status", group)
        answered = time.time()
        await api.wait_for(lambda: api.pending_updates == 0, timeout=10)
        applied_took = time.time() - answered
        await api.wait_for(lambda: any(m.text.startswith("Game: Changelings.")
                                       and m.date >= answered - 1 for m in group.messages()),
                           timeout=10)
        answer_took = time.time() - answered
        healthy = None
        for _ in range(50):
            healthy = await bot.health()
            if healthy is not None and healthy[0] == 200:
                break
            await asyncio.sleep(0.1)
        print(f"\n{killed} backends killed in {over - began:.1f} s; the queue applied "
              f"{caught_up:.2f} s after the storm; a new command answered in "
              f"{answer_took:.2f} s (applied after {applied_took:.2f} s)")
    finally:
        code = await bot.stop()
    assert code == 0
    assert killed > 100
    assert healthy is not None and healthy[0] == 200, healthy
    processed = await db.fetch("SELECT count(*) AS n FROM processed_update")
    assert processed[0]["n"] == bot.sent  # every update applied, once
    lines = bot.log_lines()
    print(f"{len(lines)} log lines; {sum('database unreachable' in x for x in lines)} outages")
    poisoned = [x for x in lines if "released back to the pool" in x]
    assert not poisoned, poisoned[:3]
