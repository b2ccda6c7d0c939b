"""`nightfall run` on the outage tests' own PostgreSQL, serving a changelings game in a fake
Telegram group, and what the tests read from that database directly."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

from tests.bot_run import NIGHTFALL, UNLIMITED, free_port, wait_healthy, write_config

NAMES = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal")


class Bot:
    def __init__(self, api: Any, url: str, tmp_path: Path) -> None:
        self.api = api
        self.url = url
        self.port = free_port()
        self.log = tmp_path / "bot.log"
        self.config = write_config(tmp_path / "nightfall.toml", database=url, port=self.port,
                                   telegram={"api_url": api.base_url, "rates": UNLIMITED},
                                   log_format="text")
        self.process: asyncio.subprocess.Process | None = None
        self.sent = 0  # updates the players sent

    async def start(self, wait: bool = True) -> None:
        with open(self.log, "ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                str(NIGHTFALL), "run", "--config", str(self.config),
                env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": self.api.token},
                stdout=log, stderr=log)
        if wait:
            await self.healthy()

    async def healthy(self) -> None:
        await wait_healthy(self.health_url, process=self.process)

    async def stop(self) -> int:
        assert self.process is not None
        self.process.terminate()
        return await asyncio.wait_for(self.process.wait(), timeout=30)

    @property
    def health_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/healthz"

    async def health(self) -> tuple[int, dict[str, Any]] | None:
        try:
            async with aiohttp.ClientSession() as http, http.get(self.health_url) as answer:
                return answer.status, await answer.json()
        except aiohttp.ClientError:
            return None

    async def metrics(self) -> str:
        async with aiohttp.ClientSession() as http, \
                http.get(f"http://127.0.0.1:{self.port}/metrics") as answer:
            return await answer.text()

    def log_lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8").splitlines()

    async def say(self, user: Any, text: str, chat: Any) -> None:
        await user.send(text, chat=chat)
        self.sent += 1

    async def sign_up(self) -> tuple[list[Any], Any]:
        """Eight players, a changelings game started (night 1)."""
        api = self.api
        users = [api.user(name) for name in NAMES]
        api.privacy = False
        group = api.group("Outage night", members=users, supergroup=True, bot_admin=True)
        for user in users:
            await user.start()
            self.sent += 1
        await self.say(users[0], "/newgame changelings", group)
        for user in users[1:]:
            await self.say(user, "/join", group)
        await self.say(users[0], "/option random_lovers false", group)
        await self.say(users[0], "/startgame", group)
        return users, group


class Database:
    """The bot's database read (and its clock moved) as another process would."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def fetch(self, query: str, *args: Any) -> list[asyncpg.Record]:
        conn = await asyncpg.connect(self.url)
        try:
            return list(await conn.fetch(query, *args))
        finally:
            await conn.close()

    async def wait(self, query: str, *args: Any, timeout: float = 20.0) -> list[asyncpg.Record]:
        """Until `query` returns rows."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        while True:
            rows = await self.fetch(query, *args)
            if rows:
                return rows
            assert loop.time() < give_up, f"never: {query}"
            await asyncio.sleep(0.1)

    async def closes(self) -> int:
        rows = await self.fetch("SELECT count(*) AS n FROM log_entry "
                                "WHERE command->>'type' = 'Close'")
        return int(rows[0]["n"])

    async def log(self) -> list[asyncpg.Record]:
        return await self.fetch("SELECT seq, command FROM log_entry ORDER BY seq")
