"""Service benchmark: commands per second and latency from an incoming update to its stored
outbox rows, with 1, 100 and 1,000 games in flight, on SQLite and PostgreSQL.

Each game is a 7-player Changelings game in its day-1 election; the timed commands are votes
spread round-robin over all games (each one a transaction: dedupe row, log entry, snapshot,
outbox rows). Prints a table; nothing is asserted. Run: `python bench/service.py
[--games 1 100 1000] [--commands 2000] [--postgres URL]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from core.service.clock import ManualClock
from core.service.ports import Incoming
from core.service.service import GameService
from core.storage.db import close_db, open_db

PLAYERS = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus")


async def reset_postgres(url: str) -> None:
    """A fresh database of its own (not the test suite's `test`)."""
    import asyncpg

    server, _, name = url.rpartition("/")
    conn = await asyncpg.connect(f"{server}/postgres")
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


class Driver:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.update = 0

    async def send(self, chat: str, user: str, text: str) -> float:
        self.update += 1
        start = time.perf_counter()
        await self.service.handle(Incoming("bench", f"u{self.update}", f"{chat}-{user}", user,
                                           text, chat))
        return time.perf_counter() - start


async def measure(url: str, games: int, commands: int) -> tuple[float, float, float]:
    await open_db(url)
    try:
        driver = Driver(GameService(ManualClock(), seed=1))
        for g in range(games):
            chat = f"chat{g}"
            await driver.send(chat, "Ann", "/newgame changelings")
            for name in PLAYERS[1:]:
                await driver.send(chat, name, "/join")
            await driver.send(chat, "Ann", "/startgame")
        latencies = []
        start = time.perf_counter()
        for i in range(commands):
            chat = f"chat{i % games}"
            voter = PLAYERS[(i // games) % len(PLAYERS)]
            target = PLAYERS[(i * 3 + 1) % len(PLAYERS)]
            latencies.append(await driver.send(chat, voter, f"/vote {target}"))
        elapsed = time.perf_counter() - start
    finally:
        await close_db()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return commands / elapsed, statistics.median(latencies) * 1000, p99 * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, nargs="*", default=[1, 100, 1000])
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--postgres",
                        default="postgres://postgres@127.0.0.1:5432/nightfall_bench")
    parser.add_argument("--skip-postgres", action="store_true")
    args = parser.parse_args()
    print(f"{'database':<11}{'games':>7}{'commands/s':>12}{'p50 ms':>9}{'p99 ms':>9}")
    for games in args.games:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite://{Path(folder) / 'bench.sqlite3'}"
            rate, p50, p99 = await measure(url, games, args.commands)
        print(f"{'sqlite':<11}{games:>7}{rate:>12.0f}{p50:>9.2f}{p99:>9.2f}", flush=True)
        if not args.skip_postgres:
            await reset_postgres(args.postgres)
            rate, p50, p99 = await measure(args.postgres, games, args.commands)
            print(f"{'postgresql':<11}{games:>7}{rate:>12.0f}{p50:>9.2f}{p99:>9.2f}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
