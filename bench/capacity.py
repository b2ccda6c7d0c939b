"""Capacity: memory per active game and the time a restart takes to fire its first deadline.

- memory: 1,000 seven-player Changelings games are started and brought to mid-game (the
  election voted, the first night open); the process's resident memory is read before and
  after the service holds them all (loaded and cached), divided by the games;
- recovery: with those 1,000 games in flight and every deadline overdue, a new service is
  started on the same database (SQLite); the figure is the time from opening the database to
  the first deadline fired, and to all of them.

Prints the figures; nothing is asserted. Run: `python bench/capacity.py [--games 1000]`.
How many games one Telegram bot token carries under the platform's flood limits (delivery,
not memory) is bench/delivery.py's.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from core.service import ChatRef, Command, Incoming, UserRef
from core.service.commands.game_service import GameService
from core.service.ports.clock import ManualClock
from core.storage.db import close_db, open_db
from core.storage.models import Deadline, GameRecord

PLAYERS = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus")


def rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * 4096 / 2**20


async def fill(service: GameService, games: int) -> None:
    update = 0

    async def say(chat: str, user: str, text: str) -> None:
        nonlocal update
        update += 1
        await service.handle(Incoming("bench", f"u{update}", UserRef(f"{chat}-{user}"), user,
                                      text, ChatRef(chat), Command.parse(text)))

    for g in range(games):
        chat = f"chat{g}"
        await say(chat, "Ann", "/newgame changelings")
        for name in PLAYERS[1:]:
            await say(chat, name, "/join")
        await say(chat, "Ann", "/option random_lovers false")
        await say(chat, "Ann", "/startgame")
        for name in PLAYERS:
            await say(chat, name, "/vote Ann")  # the election ends: night 1 is open


async def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite://{Path(folder) / 'capacity.sqlite3'}"
        await open_db(url)
        clock = ManualClock()
        service = GameService(clock, seed=1)
        started = time.perf_counter()
        await fill(service, games)
        print(f"set-up: {games} games to mid-game in {time.perf_counter() - started:.1f} s")
        service.games.cache.clear()
        before = rss_mib()
        for row in await GameRecord.filter(status="running"):
            await service.games.load(row)
        after = rss_mib()
        print(f"memory: {after - before:.1f} MiB for {games} games in mid-game "
              f"= {(after - before) * 1024 / games:.1f} KiB per game (RSS {after:.0f} MiB)")
        await close_db()

        clock.advance(3600)  # every window is overdue
        first_at = None
        start = time.perf_counter()
        await open_db(url)
        restarted = GameService(clock, seed=2)
        fired = 0
        due = await Deadline.filter(kind="close", state="pending").count()
        while fired < due:
            batch = await restarted.fire_due_deadlines(limit=1 if first_at is None else 100)
            if batch and first_at is None:
                first_at = time.perf_counter() - start
            fired += batch
            if not batch:
                break
        total = time.perf_counter() - start
        print(f"recovery: first deadline fired {first_at or 0:.2f} s after the restart; "
              f"all {fired} overdue deadlines in {total:.1f} s")
        await close_db()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    asyncio.run(main(parser.parse_args().games))
