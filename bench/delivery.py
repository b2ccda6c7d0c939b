"""Delivery capacity: how many concurrent games one Telegram bot token carries.

The real bot (`nightfall run`, a process of its own, on a PostgreSQL database made for the run
and dropped after it) talks to the fake Bot API of the tests, which enforces Telegram's flood
limits (30 messages a second overall, 20 a minute per group, one a second per chat with short
bursts; a 429 with `retry_after` beyond them). N groups of 10 players each play a quick-pace
Changelings game from sign-up through the election day, the first night and the second day's
vote, by buttons: each player presses one of the choices a keyboard offers one to four seconds
after it reaches him (the group's ballot, his private prompts), so windows close early as
soon as everybody has acted, the way a quick table plays.

Figures per N (nothing is asserted):
- msg/s while a backlog waits: sends and edits Telegram accepted, per second, over the time
  the outbox held at least one (and at least 30) undelivered rows, beside Telegram's 30/s;
- backlog max: the most undelivered rows seen at once, and the oldest row's age;
- prompt delay: per window with private prompts, the time from the window's opening (the
  bot's commit of the window, seen by polling its database every 0.1 s) to the last private
  prompt of that window reaching Telegram; p50 / p95 over windows, and how many windows' last
  prompt came later than 10 % of the window's length;
- vote -> tally: from a press on the group's ballot to the first edit of the ballot whose
  "Votes so far" counts that many votes (the n-th press of a ballot waits for a tally of n;
  the mayor's double vote can make it show one press early); p50 / p95;
- 429s: the fake's 429 answers; over budget: the seconds `/healthz` called the token over its
  budget (asked once a second); bot CPU: the bot process's processor time over the run, in
  percent of one core.

Run: `python bench/delivery.py [--games 1 5 10 20 40] [--postgres URL]`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import aiohttp
import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from delivery_meter import (
    Figures,
    MeasuredBotAPI,
    delivery_rate,
    percentile,
    prompt_delays,
    tally_delays,
)

from tests.bot_run import NIGHTFALL, free_port, wait_healthy, write_config
from tests.telegram.fake_botapi import FakeBotAPI, FakeGroup, FakeUser, FloodRules

SERVER = os.environ.get("NIGHTFALL_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432/test")
PLAYERS = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
CEILING = 30.0  # Telegram's messages per second for one bot
SKIPPED = ("Withdraw my vote", "Pass", "My vote is early")


async def make_database(name: str, drop_only: bool = False) -> str:
    conn = await asyncpg.connect(SERVER)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return f"{SERVER.rsplit('/', 1)[0]}/{name}"


async def start_bot(api: FakeBotAPI, db_url: str, folder: Path
                    ) -> tuple[asyncio.subprocess.Process, int]:
    port = free_port()
    config = write_config(folder / "nightfall.toml", database=db_url, port=port,
                          telegram={"api_url": api.base_url})
    log = open(folder / "bot.log", "wb")  # noqa: SIM115 - the process writes it until it ends
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(config), stdout=log, stderr=log,
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": api.token})
    try:
        await wait_healthy(f"http://127.0.0.1:{port}/healthz", process=process)
    except AssertionError:
        raise RuntimeError((folder / "bot.log").read_text()[-2000:]) from None
    return process, port


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields_ = stat.read().rsplit(")", 1)[1].split()
    return (int(fields_[11]) + int(fields_[12])) / os.sysconf("SC_CLK_TCK")


class Table:
    """One group of ten players, pressing what they are offered."""

    def __init__(self, api: MeasuredBotAPI, index: int, figures: Figures, seed: int) -> None:
        self.api = api
        self.figures = figures
        self.rng = random.Random(seed)
        self.users = [api.user(f"{name}{index}", language_code="en") for name in PLAYERS]
        self.group: FakeGroup = api.group(f"Game night {index}", members=self.users,
                                          bot_admin=True, supergroup=True)
        self.pressed: set[tuple[int, int, int]] = set()
        self.votes: dict[int, int] = {}  # ballot message -> presses so far
        self.done = False
        self.last_opened: float | None = None  # when the last window played opened
        self.pending = 0  # presses on their way
        self.tasks: set[asyncio.Task[None]] = set()

    async def sign_up(self) -> None:
        host = self.users[0]
        changed = self.api.listeners.setdefault(self.group.id, asyncio.Event())
        await host.send("/newgame changelings", chat=self.group)
        payload = None
        while payload is None:
            await asyncio.sleep(0.2)
            for message in self.api.messages(self.group):
                links = [b["url"] for row in message.buttons for b in row if "url" in b]
                if links:
                    payload = parse_qs(urlparse(links[0]).query)["start"][0]
        for user in self.users[1:]:
            await user.start(payload)
        await host.start()
        await host.send("/pace quick", chat=self.group)
        await asyncio.sleep(1.0)
        changed.clear()
        await host.send("/startgame", chat=self.group)

    async def play(self) -> None:
        """Look at every chat whenever one of them gets a new keyboard; press after a
        while, once per message."""
        chats: list[FakeUser | FakeGroup] = [self.group, *self.users]
        event = asyncio.Event()
        for chat in chats:
            self.api.listeners[chat.id] = event
        while not self.done:
            event.clear()
            self.done = self.finished()
            for chat in chats:
                seen = self.api.keyboards.get(chat.id)
                if seen is None:
                    continue
                message_id, shown = seen
                voters = self.users if chat is self.group else [chat]
                for user in voters:
                    key = (chat.id, message_id, user.id)
                    if key in self.pressed:
                        continue
                    self.pressed.add(key)
                    choices = [data for label, data in shown.callbacks
                               if label not in SKIPPED and label != user.first_name]
                    if choices:
                        self.tasks.add(asyncio.create_task(self.press(
                            user, chat, message_id, self.rng.choice(choices))))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=1.0)

    def finished(self) -> bool:
        """The last window played is open and all of the living have voted on its ballot
        (or it has been open for 90 s)."""
        if self.last_opened is None:
            return False
        ballot = self.api.keyboards.get(self.group.id)
        voted = ballot is not None and self.votes.get(ballot[0], 0) >= 8 and \
            self.api.arrivals.get((self.group.id, ballot[0]), 0.0) > self.last_opened
        return (voted and not self.pending) or time.monotonic() - self.last_opened > 90

    async def press(self, user: FakeUser, chat: FakeUser | FakeGroup, message_id: int,
                    data: str) -> None:
        self.pending += 1
        await asyncio.sleep(self.rng.uniform(1.0, 4.0))
        self.pending -= 1
        if self.done:
            return
        try:
            await user.press({"chat": {"id": chat.id}, "message_id": message_id}, data)
        except AssertionError:
            return  # the keyboard changed meanwhile (the window closed): a person gives up
        if chat is self.group:
            count = self.votes.get(message_id, 0) + 1
            self.votes[message_id] = count
            self.figures.presses.append((time.monotonic(), chat.id, message_id, count))


async def over_budget(http: aiohttp.ClientSession, port: int) -> bool:
    """Whether the bot's /healthz says a platform is over its budget."""
    async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
        return bool((await response.json()).get("over_budget"))


async def watch(db: asyncpg.Connection, figures: Figures, tables: dict[int, Table],
                last_window: int, stop: asyncio.Event, port: int) -> None:
    """Every 0.1 s: each game's window (a new one is noted with its deadline's length) and
    the outbox's undelivered rows; every second what /healthz says of the budget. A game's
    players stop after `last_window`."""
    chats = {table.group.id: table for table in tables.values()}
    http = aiohttp.ClientSession()
    ticks = 0
    try:
        while not stop.is_set():
            await watch_once(db, figures, chats, last_window)
            ticks += 1
            if ticks % 10 == 0:
                figures.over_budget.append(await over_budget(http, port))
            await asyncio.sleep(0.1)
    finally:
        await http.close()


async def watch_once(db: asyncpg.Connection, figures: Figures, chats: dict[int, Table],
                     last_window: int) -> None:
    """One look at the windows and the outbox."""
    now, wall = time.monotonic(), time.time()
    rows = await db.fetch(
        'SELECT g.id, g."window", c.ref, d.due_at FROM game g JOIN chat c ON c.id = g.chat_id'
        " LEFT JOIN deadline d ON d.game_id = g.id AND d.kind = 'close'"
        " AND d.state = 'pending' WHERE g.status = 'running'")
    for game, window, ref, due in rows:
        if (game, window) not in figures.windows:
            figures.windows[game, window] = now
            if due is not None:
                figures.lengths[game, window] = due - wall
        table = chats.get(int(ref.rsplit(":", 1)[-1])) if ref else None
        if table is not None and window > last_window and table.last_opened is None:
            table.last_opened = now
    pending, oldest = await db.fetchrow(
        "SELECT count(*), extract(epoch FROM now() - min(created_at)) FROM outbox"
        " WHERE status IN ('pending', 'sending')")
    figures.backlog.append((now, pending, float(oldest or 0.0)))


async def run(games: int, seed: int, last_window: int, limit: float) -> dict[str, Any]:
    name = f"nightfall_bench_delivery_{os.getpid()}"
    db_url = await make_database(name)
    api = MeasuredBotAPI(flood=FloodRules())
    await api.start()
    figures = Figures()
    stop = asyncio.Event()
    with tempfile.TemporaryDirectory() as folder:
        process, port = await start_bot(api, db_url, Path(folder))
        db = await asyncpg.connect(db_url)
        try:
            cpu_before, started = cpu_seconds(process.pid), time.monotonic()
            tables = {i: Table(api, i, figures, seed + i) for i in range(games)}
            watcher = asyncio.create_task(watch(db, figures, tables, last_window, stop, port))
            await asyncio.gather(*(t.sign_up() for t in tables.values()))
            players = [asyncio.create_task(t.play()) for t in tables.values()]
            while not all(t.done for t in tables.values()) and \
                    time.monotonic() - started < limit:
                await asyncio.sleep(0.5)
            for table in tables.values():
                table.done = True
            while figures.backlog[-1][1] and time.monotonic() - started < limit + 120:
                await asyncio.sleep(0.5)  # what is still waiting is delivered
            elapsed = time.monotonic() - started
            cpu = (cpu_seconds(process.pid) - cpu_before) / elapsed
            stop.set()
            await asyncio.gather(watcher, *players)
            prompts = await prompt_delays(db, api, figures)
            tallies = tally_delays(api, figures)
        finally:
            await db.close()
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), timeout=60)
            await api.stop()
            await make_database(name, drop_only=True)
    delays = [d for d, _ in prompts]
    late = sum(1 for d, length in prompts if d > 0.1 * length)
    worst = max(figures.backlog, key=lambda b: b[1])
    return {"games": games, "rate": delivery_rate(api, figures, 1),
            "rate30": delivery_rate(api, figures, 30), "backlog": worst[1],
            "oldest": max(b[2] for b in figures.backlog),
            "p50": percentile(delays, 0.5), "p95": percentile(delays, 0.95),
            "late": late, "windows": len(prompts),
            "t50": percentile(tallies, 0.5), "t95": percentile(tallies, 0.95),
            "floods": api.flood_hits, "cpu": cpu, "seconds": elapsed,
            "sent": len(api.accepted), "over": sum(figures.over_budget)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, nargs="+", default=[1, 5, 10, 20, 40])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--last-window", type=int, default=3,
                        help="the last window played to its end (3: the first night's dawn);"
                             " the next one's ballot is voted, then the players stop")
    parser.add_argument("--limit", type=float, default=900.0,
                        help="seconds a run may play before its players stop")
    args = parser.parse_args()
    print(f"{'games':>5} {'msg/s backlog>0':>15} {'>=30':>6} {'ceiling':>7} "
          f"{'backlog max (oldest)':>21} {'last prompt p50/p95':>20} {'late windows':>13} "
          f"{'vote->tally p50/p95':>20} {'429s':>5} {'bot cpu':>7} {'sent':>6} {'run':>6} "
          f"{'over budget':>11}")
    for games in args.games:
        r = asyncio.run(run(games, args.seed, args.last_window, args.limit))
        print(f"{r['games']:>5} {r['rate']:>15.1f} {r['rate30']:>6.1f} {CEILING:>7.0f} "
              f"{r['backlog']:>9} ({r['oldest']:>5.0f} s) "
              f"{r['p50']:>9.1f} / {r['p95']:>5.1f} s "
              f"{r['late']:>5} of {r['windows']:<4} "
              f"{r['t50']:>9.1f} / {r['t95']:>5.1f} s {r['floods']:>5} "
              f"{100 * r['cpu']:>6.0f}% {r['sent']:>6} {r['seconds']:>5.0f}s "
              f"{r['over']:>9} s", flush=True)


if __name__ == "__main__":
    main()
