"""The crash suite: `nightfall run` serves a Telegram group through the fake Bot API while it
is killed with SIGKILL at random points (CI-sized: 40 times, each a whole start of the bot;
NIGHTFALL_CRASH_KILLS=200 for a longer hunt) and started again, as players keep voting and
deadlines keep coming due. Afterwards:
- no accepted command is lost: every update the players sent was applied, exactly once
  (updates are confirmed to Telegram only after they were applied);
- no deadline fired twice, and every fired one closed its window once;
- no game is stuck: a running game has its next deadline;
- nothing was announced twice: each delivered outbox row was one call, and a row caught
  mid-send by a kill was sent again only if it was an edit of a known message."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
from collections import Counter
from pathlib import Path

import asyncpg  # noqa: F401  (imported by the storage layer too; keeps the import cost out)
import pytest

from core.service.messages.payloads import ORDERS, from_json
from core.storage.db import close_db, open_db
from core.storage.models import Deadline, GameRecord, LogEntry, Outbox, ProcessedUpdate
from tests.bot_run import NIGHTFALL, UNLIMITED, free_port, wait_healthy, write_config
from tests.waiting import Patience

from .fake_botapi import FakeBotAPI

# a start of the bot takes 1-2 s on an idle machine and several times that on a loaded one
pytestmark = pytest.mark.timeout(900)
KILLS = int(os.environ.get("NIGHTFALL_CRASH_KILLS", "40"))


async def start(config: Path, token: str, port: int) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(config),
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": token},
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        await wait_healthy(f"http://127.0.0.1:{port}/healthz", process=process)
    except BaseException:  # (a bot that never became healthy must not outlive the test)
        if process.returncode is None:
            process.kill()
            await process.wait()
        raise
    return process


async def due_now(db: Path) -> None:
    """The clock jumps: every pending deadline is due (written as another process would)."""
    with sqlite3.connect(db, timeout=10) as conn:
        conn.execute("UPDATE deadline SET due_at = 0 WHERE kind = 'close' AND state = 'pending'")


async def caught_up(api: FakeBotAPI, db: Path) -> None:
    """Until the bot has fetched every update and delivered its outbox (read as another
    process would). A quiet second on the fake is no sign of that on a loaded machine, where
    the bot may take longer between two sends; a minute without progress fails."""
    patience = Patience(quiet=60, limit=600)
    while patience.waiting():
        with contextlib.closing(sqlite3.connect(db, timeout=10)) as conn:
            busy = conn.execute("SELECT count(*) FROM outbox WHERE status IN "
                                "('pending', 'sending')").fetchone()[0]
        if busy == 0 and api.pending_updates == 0:
            return
        patience.moved((busy, api.pending_updates, len(api.calls)))
        await asyncio.sleep(0.1)
    raise TimeoutError(f"the bot never caught up ({patience.why()}): {busy} rows to send, "
                       f"{api.pending_updates} updates to fetch")


async def test_sigkill_at_random_points_loses_nothing_and_repeats_nothing(api, tmp_path):
    rng = random.Random(2026)
    db = tmp_path / "crash.sqlite3"
    port = free_port()
    config = write_config(tmp_path / "nightfall.toml", database=f"sqlite://{db}", port=port,
                          telegram={"api_url": api.base_url, "rates": UNLIMITED},
                          log_level="ERROR")
    users = [api.user(name) for name in ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus",
                                         "Hal")]
    api.privacy = False
    group = api.group("Crash test", members=users, supergroup=True, bot_admin=True)
    for user in users:
        await user.start()
    sent = len(users)  # the players' messages (each /start is one)
    script = [(0, "/newgame changelings"), *((i, "/join") for i in range(1, 8)),
              (0, "/option random_lovers false"), (0, "/startgame")]
    bot = await start(config, api.token, port)
    try:
        for kill in range(KILLS):
            for _ in range(rng.randint(1, 4)):
                if script:
                    who, text = script.pop(0)
                    sender = users[who]
                else:
                    sender = rng.choice([u for u in users if group.can_send(u)])  # not the dead
                    text = rng.choice([f"/vote {rng.choice(users).first_name}", "/unvote",
                                       "/status"])
                await sender.send(text, chat=group)
                sent += 1
            if kill % 7 == 6:
                await due_now(db)
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            bot.send_signal(signal.SIGKILL)
            await bot.wait()
            bot = await start(config, api.token, port)
        await due_now(db)
        await caught_up(api, db)
        await api.settle(quiet=1.0, timeout=120)
    finally:
        bot.send_signal(signal.SIGTERM)
        await asyncio.wait_for(bot.wait(), timeout=60)
    assert bot.returncode == 0

    await open_db(f"sqlite://{db}")
    try:
        assert await ProcessedUpdate.all().count() == sent  # every one applied, once
        fired = await Deadline.filter(kind="close", state="fired")
        assert max(Counter((d.game_id, d.window) for d in fired).values(), default=1) == 1
        closes = [e for e in await LogEntry.all() if e.command["type"] == "Close"]
        assert len(closes) == len(fired)
        for row in await GameRecord.filter(status="running"):
            assert await Deadline.filter(game_id=row.id, kind="close", state="pending").count() == 1
        rows = [r for r in await Outbox.all()
                if not isinstance(from_json(r.payload), ORDERS)]
        status = Counter(r.status for r in rows)
        assert status["pending"] == status["sending"] == 0
        methods = ("sendMessage", "editMessageText", "sendPhoto")  # the end's picture too
        refused = [e for e in api.errors if e.method in methods]
        calls = sum(len(api.calls_to(m)) for m in methods) - len(refused)
        assert status["sent"] <= calls <= status["sent"] + status["unknown"]
    finally:
        await close_db()

