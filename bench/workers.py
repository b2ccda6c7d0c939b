"""Several workers on one PostgreSQL: commands per second with 1, 2 and 4 worker processes,
each a `GameService` of its own on the same database, as `nightfall run` workers behind a
webhook would be.

The games (7-player Changelings games in their day-1 election) are made once. In each
configuration the workers together apply about the same number of commands (whole rounds of a vote
and its withdrawal in each game a worker serves): each worker's own voter, in each game
it serves, votes and withdraws the vote in turn (so no window ever closes and every command
is accepted: a log entry, the snapshot, the tally's outbox row). Worker k votes for another
player than the others do, so that no majority forms.

- `split`: the games are shared out, worker k serves every k-th game (a load balancer that
  sends each chat to one worker);
- `shared`: every worker serves every game (a balancer without affinity): the game row's
  lock orders the commands, and a worker that finds a game changed by another replays it.

Prints commands per second (all workers together, first start to last end) and the median
latency; nothing is asserted. Each worker keeps its games loaded before the clock starts.
Run: `python bench/workers.py [--games 200] [--commands 1200] [--workers 1 2 4]
[--postgres URL]`.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from core.service import Command

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import PLAYERS, Driver, reset_postgres
from core.service import ChatRef, Incoming, UserRef
from core.service.commands.game_service import GameService
from core.service.ports.clock import ManualClock
from core.storage.db import close_db, open_db
from core.storage.models import GameRecord

TARGETS = ("Eve", "Fay", "Gus", "Ann")  # worker k's voter PLAYERS[k] votes for TARGETS[k]


async def make_games(url: str, games: int) -> None:
    await open_db(url)
    try:
        await Driver(GameService(ManualClock(), seed=1)).open_games(games)
    finally:
        await close_db()


async def work(url: str, k: int, chats: list[int], commands: int, tag: str,
               ready: Any, start: Any) -> dict[str, Any]:
    await open_db(url)
    try:
        service = GameService(ManualClock(), seed=k)
        for row in await GameRecord.filter(status="running"):
            await service.games.load(row)
        voter, target = PLAYERS[k], TARGETS[k]
        ready.release()
        start.wait()
        began = time.time()
        latencies = []
        for i in range(commands):
            chat = f"chat{chats[i % len(chats)]}"
            text = f"/vote {target}" if (i // len(chats)) % 2 == 0 else "/unvote"
            sent = time.perf_counter()
            await service.handle(Incoming("bench", f"{tag}-{k}-{i}", UserRef(f"{chat}-{voter}"),
                                          voter, text, ChatRef(chat), Command.parse(text)))
            latencies.append(time.perf_counter() - sent)
        return {"began": began, "ended": time.time(), "latencies": latencies}
    finally:
        await close_db()


def worker(url: str, k: int, chats: list[int], commands: int, tag: str, ready: Any,
           start: Any, results: Any) -> None:
    results.put(asyncio.run(work(url, k, chats, commands, tag, ready, start)))


def run(url: str, workers: int, games: int, commands: int, mode: str) -> tuple[float, float]:
    spawn = mp.get_context("spawn")
    ready, start, results = spawn.Semaphore(0), spawn.Event(), spawn.Queue()
    processes = []
    for k in range(workers):
        chats = list(range(k, games, workers)) if mode == "split" else list(range(games))
        rounds = max(1, round(commands / workers / (2 * len(chats))))  # a vote, its withdrawal
        processes.append(spawn.Process(target=worker, args=(
            url, k, chats, rounds * 2 * len(chats), f"{mode}{workers}", ready, start,
            results)))
    for process in processes:
        process.start()
    for _ in processes:
        ready.acquire()
    start.set()
    outcomes = [results.get() for _ in processes]
    for process in processes:
        process.join()
    elapsed = max(o["ended"] for o in outcomes) - min(o["began"] for o in outcomes)
    latencies = [t for o in outcomes for t in o["latencies"]]
    return len(latencies) / elapsed, statistics.median(latencies) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--commands", type=int, default=1200, help="per configuration")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2, 4])
    parser.add_argument("--postgres",
                        default="postgres://postgres@127.0.0.1:5432/nightfall_workers")
    args = parser.parse_args()
    asyncio.run(reset_postgres(args.postgres))
    asyncio.run(make_games(args.postgres, args.games))
    print(f"{'mode':<8}{'workers':>8}{'commands/s':>12}{'p50 ms':>9}   ({args.games} games)")
    for mode in ("split", "shared"):
        for workers in args.workers:
            rate, p50 = run(args.postgres, workers, args.games, args.commands, mode)
            print(f"{mode:<8}{workers:>8}{rate:>12.0f}{p50:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
