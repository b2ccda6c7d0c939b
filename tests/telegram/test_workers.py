"""Two `nightfall run` workers share one PostgreSQL database and serve the same games: Telegram
sends each update to one of them (webhook mode behind a load balancer, some updates to both),
and every deadline comes due for both at once. Each command is applied once, under the
game's lock; each deadline fires once; the outbox is delivered by one worker at a time, so
no message is sent twice."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import aiohttp
import asyncpg

from core.service.messages.payloads import ORDERS, from_json
from core.storage.db import close_db, open_db
from core.storage.models import Deadline, GameRecord, LogEntry, Outbox, ProcessedUpdate
from tests.bot_run import NIGHTFALL, free_port, wait_healthy, write_config
from tests.service.conftest import POSTGRES, reset_postgres

SECRET = "two-workers"
GROUPS = 3
PLAYERS = 7


class Balancer:
    """Plays Telegram in webhook mode: takes the updates the fake users made and posts each
    to one worker in turn, and every fifth one to both (Telegram may deliver twice)."""

    def __init__(self, api, ports: list[int]) -> None:
        self.api = api
        self.ports = ports
        self.sent = 0
        self.distinct: set[int] = set()

    async def forward(self) -> None:
        async with aiohttp.ClientSession() as http:
            while self.api._pending:
                update = self.api._pending.pop(0)
                targets = self.ports if update["update_id"] % 5 == 0 else [
                    self.ports[self.sent % len(self.ports)]]
                self.sent += 1
                if "message" in update or "callback_query" in update:  # what the game reads
                    self.distinct.add(update["update_id"])
                await asyncio.gather(*(self._post(http, port, update) for port in targets))

    async def _post(self, http: aiohttp.ClientSession, port: int, update: dict) -> None:
        async with http.post(f"http://127.0.0.1:{port}/telegram", json=update,
                             headers={"X-Telegram-Bot-Api-Secret-Token": SECRET}) as answer:
            assert answer.status == 200


async def start_worker(api, tmp_path: Path, name: str) -> tuple[asyncio.subprocess.Process,
                                                                  int, int]:
    hook, http = free_port(), free_port()
    config = write_config(tmp_path / f"{name}.toml", database=POSTGRES, port=http,
                          telegram={"api_url": api.base_url,
                                    "webhook_url": f"http://127.0.0.1:{hook}/telegram",
                                    "webhook_port": hook, "webhook_secret": SECRET})
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(config),
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": api.token},
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    await wait_healthy(f"http://127.0.0.1:{http}/healthz")
    return process, hook, http


async def quiet(api, balancer: Balancer, calm: float = 0.8, timeout: float = 60.0) -> None:
    """Forward what the users did until the bot made no call for `calm` seconds and its
    outbox holds nothing more to send (a chat's pacing can pause calls for a second)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        await balancer.forward()
        await asyncio.sleep(0.1)
        if not api._pending and loop.time() - api._last_activity >= calm \
                and not await outbox_waiting():
            return
    raise TimeoutError("the workers never went quiet")


async def outbox_waiting() -> int:
    conn = await asyncpg.connect(POSTGRES)
    try:
        return await conn.fetchval(
            "SELECT count(*) FROM outbox WHERE status IN ('pending', 'sending')")
    finally:
        await conn.close()


async def test_two_workers_apply_each_command_and_fire_each_deadline_once(api, tmp_path):
    await reset_postgres()
    api.deliver_webhooks = False  # the Balancer plays Telegram's side of the webhook
    api.privacy = False
    # Telegram takes a new webhook URL at most once a second per bot: the second worker,
    # started within that second, gets 429 on setWebhook and waits it out
    first, hook1, _ = await start_worker(api, tmp_path, "one")
    try:
        second, hook2, _ = await start_worker(api, tmp_path, "two")
    except BaseException:
        first.kill()
        await first.wait()
        raise
    balancer = Balancer(api, [hook1, hook2])
    try:
        groups = []
        for g in range(GROUPS):
            users = [api.user(f"P{g}x{i}") for i in range(PLAYERS)]
            group = api.group(f"Table {g}", members=users, supergroup=True, bot_admin=True)
            groups.append((group, users))
            for user in users:
                await user.start()
            await users[0].send("/newgame changelings", chat=group)
            await quiet(api, balancer)
            for user in users[1:]:
                await user.send("/join", chat=group)
            await users[0].send("/option random_lovers false", chat=group)
            await users[0].send("/startgame", chat=group)
        await quiet(api, balancer)
        for round_ in range(3):  # a burst of votes in every game at once
            for group, users in groups:
                for i, user in enumerate(users):
                    target = users[(i + round_ + 1) % len(users)]
                    await user.send(f"/vote {target.first_name}", chat=group)
            await quiet(api, balancer)
            # the clock jumps: every window's deadline is due for both workers at once
            conn = await asyncpg.connect(POSTGRES)
            try:
                await conn.execute("UPDATE deadline SET due_at = 0 WHERE state = 'pending'")
                # reminders follow the workers' real clocks, which this test jumps over
                await conn.execute("UPDATE deadline SET state = 'void' WHERE state = 'remind'")
            finally:
                await conn.close()
            await asyncio.sleep(1.0)
            await quiet(api, balancer)
    finally:
        for process in (first, second):
            process.send_signal(signal.SIGTERM)
        for process in (first, second):
            _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
            assert process.returncode == 0, stderr.decode()[-2000:]

    await open_db(POSTGRES)
    try:
        assert await ProcessedUpdate.all().count() == len(balancer.distinct)  # each once
        fired = await Deadline.filter(kind="close", state="fired").count()
        closes = [e for e in await LogEntry.all() if e.command["type"] == "Close"]
        # only the window's current deadline was pending, so each fired one closed its window
        # once: a second worker firing it again would have added a second Close
        assert fired >= GROUPS * 3
        assert len(closes) == fired
        for row in await GameRecord.all():
            seqs = [e.seq for e in await LogEntry.filter(game_id=row.id).order_by("seq")]
            assert seqs == list(range(1, row.version + 1))
        sent = sum(1 for row in await Outbox.filter(status="sent")
                   if not isinstance(from_json(row.payload), ORDERS))
        assert not await Outbox.filter(status__in=["pending", "sending", "unknown"]).exists()
        methods = ("sendMessage", "editMessageText")
        refused = [e for e in api.errors if e.method in methods]
        calls = sum(len(api.calls_to(m)) for m in methods) - len(refused)
        assert calls == sent, refused  # one call per delivered row: nothing was sent twice
    finally:
        await close_db()
