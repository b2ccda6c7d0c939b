"""Service benchmark: commands per second and latency from an incoming update to its stored
outbox rows, with 1, 100 and 1,000 games in flight, on SQLite and PostgreSQL, beside the
floor the same database allows.

Each game is a 7-player Changelings game in its day-1 election; the timed commands are votes
spread round-robin over all games (each one a transaction: dedupe row, log entry, snapshot,
outbox rows).

The cpu columns are this process's processor time per command (its own work and its
system calls, not the database's): on a loaded machine a command's time is mostly waiting
for the processor, and this says how much of it each side asks for.

The floor is a bare transaction per command doing only the essential writes, on the same
database and the same tables: the game row locked (`SELECT ... FOR UPDATE`), a log row
inserted (a real vote's command and events) and the snapshot rewritten (the real game's, so
of the same size). It runs on copies of the benchmark's games (status `floor`, never seen by
the service). Floor and service run in alternating blocks of commands, so that the load of a
shared machine falls on both alike; the ratio is service/floor.

With `--queries` the statements each service command sends are counted (from the database
client's log; BEGIN and COMMIT are not logged and come on top). Prints a table; nothing is
asserted. Run: `python bench/service.py [--games 1 100 1000] [--commands 2000]
[--postgres URL] [--skip-sqlite] [--skip-postgres] [--queries] [--fresh]`.

On PostgreSQL the games, once made, are kept in a database of their own (per number of
games and schema) and copied for the next run (`--fresh` makes them anew): the copy's
service starts warm, as a worker that has run a while (its games loaded, their ballots
known).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tortoise import connections
from tortoise.transactions import in_transaction

from core.service import ChatRef, Command, Incoming, UserRef
from core.service.commands.game_service import GameService
from core.service.ports.clock import ManualClock
from core.service.telling.ballots import stored_options
from core.storage.db import close_db, open_db
from core.storage.models import Ballot, GameRecord, LogEntry

PLAYERS = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus")
BLOCK = 100  # commands per alternating block of floor and service
FLOOR_SEQ = 1_000_000  # the floor's log rows (on its own copies of the games)


async def reset_postgres(url: str, template: str | None = None) -> bool:
    """A fresh database of its own (not the test suite's `test`): a copy of `template` if
    that database exists (True), else empty."""
    import asyncpg

    server, _, name = url.rpartition("/")
    conn = await asyncpg.connect(f"{server}/postgres")
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if template and await conn.fetchval(
                "SELECT count(*) FROM pg_database WHERE datname = $1", template):
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            return True
        await conn.execute(f'CREATE DATABASE "{name}"')
        return False
    finally:
        await conn.close()


async def keep_as_template(url: str, template: str) -> None:
    """Keep the database with its games made as `template` (setting 1,000 games up takes
    minutes on a loaded machine; `--fresh` makes them anew)."""
    import asyncpg

    server, _, name = url.rpartition("/")
    conn = await asyncpg.connect(f"{server}/postgres")
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{template}"')
        await conn.execute(f'CREATE DATABASE "{template}" TEMPLATE "{name}"')
    finally:
        await conn.close()


def template_name(url: str, games: int) -> str:
    """The kept games' database: per number of games and schema (its newest migration)."""
    from core.storage import migrations

    newest = max(p.stem for p in Path(migrations.__file__).parent.glob("0*.py"))
    return f"{url.rpartition('/')[2]}_games{games}_{newest[:4]}"


async def warm(service: GameService) -> None:
    """What a worker that has run a while holds: every running game loaded, its ballot
    known (as if it had opened their windows itself)."""
    for row in await GameRecord.filter(status="running"):
        await service.games.load(row)
    for ballot in await Ballot.all():
        service.games.held.ballots[ballot.game_id, ballot.window] = stored_options(ballot.buttons)


class Counter(logging.Handler):
    """Counts the statements the database client logs (at DEBUG)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.count = 0
        self.seen: dict[str, int] = {}

    def emit(self, record: logging.LogRecord) -> None:
        if not isinstance(record.msg, str) or record.msg.startswith("Created"):
            return
        self.count += 1
        sql = str(record.args[0]) if record.args else record.msg
        self.seen[sql[:90]] = self.seen.get(sql[:90], 0) + 1


class Driver:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.update = 0

    async def send(self, chat: str, user: str, text: str) -> float:
        self.update += 1
        start = time.perf_counter()
        await self.service.handle(Incoming("bench", f"u{self.update}", UserRef(f"{chat}-{user}"),
                                           user, text, ChatRef(chat), Command.parse(text)))
        return time.perf_counter() - start

    async def open_games(self, games: int) -> None:
        """Games `chat0` … in their day-1 election: opened by Ann, joined by the others,
        started."""
        for g in range(games):
            chat = f"chat{g}"
            await self.send(chat, "Ann", "/newgame changelings")
            for name in PLAYERS[1:]:
                await self.send(chat, name, "/join")
            await self.send(chat, "Ann", "/startgame")


class Floor:
    """The bare transaction: lock, log row, snapshot rewrite."""

    def __init__(self, postgres: bool, games: list[int], command: str, events: str) -> None:
        self.games = games
        self.command = command
        self.events = events
        self.seq = FLOOR_SEQ
        mark = (lambda n: f"${n}") if postgres else (lambda n: "?")
        lock = " FOR UPDATE" if postgres else ""
        self.lock_sql = f"SELECT id, snapshot FROM game WHERE id = {mark(1)}{lock}"
        self.log_sql = (f"INSERT INTO log_entry (game_id, seq, command, events) "
                        f"VALUES ({mark(1)}, {mark(2)}, {mark(3)}, {mark(4)})")
        self.write_sql = (f"UPDATE game SET snapshot = {mark(1)}, version = {mark(2)} "
                          f"WHERE id = {mark(3)}")
        self.snapshots: dict[int, str] = {}

    async def load(self) -> None:
        conn = connections.get("default")
        for game_id in self.games:
            _, rows = await conn.execute_query(self.lock_sql.replace(" FOR UPDATE", ""),
                                               [game_id])
            snapshot = rows[0]["snapshot"]
            self.snapshots[game_id] = snapshot if isinstance(snapshot, str) \
                else json.dumps(snapshot, separators=(",", ":"))

    async def send(self, i: int) -> float:
        game_id = self.games[i % len(self.games)]
        self.seq += 1
        start = time.perf_counter()
        async with in_transaction() as tx:
            await tx.execute_query(self.lock_sql, [game_id])
            await tx.execute_query(self.log_sql, [game_id, self.seq, self.command, self.events])
            await tx.execute_query(self.write_sql,
                                   [self.snapshots[game_id], self.seq, game_id])
        return time.perf_counter() - start


async def floor_games(postgres: bool) -> list[int]:
    """Copies of the running games for the floor, under a status the service never reads."""
    conn = connections.get("default")
    await conn.execute_query(
        "INSERT INTO game (chat_id, ruleset, status, host_id, settings, setup, snapshot, "
        "build, version, \"window\", paused_left, archive_token, created_at) "
        "SELECT chat_id, ruleset, 'floor', host_id, settings, setup, snapshot, build, version, "
        "\"window\", paused_left, archive_token, created_at FROM game WHERE status = 'running'")
    return [g.id for g in await GameRecord.filter(status="floor").order_by("id")]


async def analyze(postgres: bool) -> None:
    """The planner's statistics of the tables as they now are: a database that has run a
    while has them (autovacuum analyzes a table once a tenth of it changed); a table just
    filled without them is planned as empty (a sequential scan of 7,000 identities to find
    one game's seven)."""
    if postgres:
        await connections.get("default").execute_script("ANALYZE")


def vote(i: int, games: int) -> tuple[str, str, str]:
    chat = f"chat{i % games}"
    voter = PLAYERS[(i // games) % len(PLAYERS)]
    target = PLAYERS[(i * 3 + 1) % len(PLAYERS)]
    return chat, voter, f"/vote {target}"


async def measure(url: str, games: int, commands: int, count_queries: bool,
                  made: bool = False, template: str | None = None) -> dict[str, Any]:
    """`made`: the games are in the database already (a copy of `template`); else they
    are made and, with `template`, kept there for the next run."""
    postgres = url.startswith("postgres")
    await open_db(url)
    try:
        driver = Driver(GameService(ManualClock(), seed=1))
        if made:
            driver.update = 10 * games  # (the copied games' update ids are taken)
            await warm(driver.service)
        else:
            await driver.open_games(games)
            if template:
                await close_db()
                await keep_as_template(url, template)
                await open_db(url)
        # a real vote's log row, for the floor's
        await driver.send(*vote(commands, games))
        entry = await LogEntry.all().order_by("-id").first()
        assert entry is not None
        floor = Floor(postgres, await floor_games(postgres),
                      json.dumps(entry.command), json.dumps(entry.events))
        await floor.load()
        await analyze(postgres)
        counter = Counter()
        db_log = logging.getLogger("tortoise.db_client")
        served: list[float] = []
        floored: list[float] = []
        service_time = floor_time = service_cpu = floor_cpu = 0.0
        for block in range(0, commands, BLOCK):
            size = min(BLOCK, commands - block)
            start, cpu = time.perf_counter(), time.process_time()
            for i in range(block, block + size):
                floored.append(await floor.send(i))
            floor_time += time.perf_counter() - start
            floor_cpu += time.process_time() - cpu
            if count_queries:
                db_log.setLevel(logging.DEBUG)
                db_log.addHandler(counter)
            start, cpu = time.perf_counter(), time.process_time()
            for i in range(block, block + size):
                served.append(await driver.send(*vote(i, games)))
            service_time += time.perf_counter() - start
            service_cpu += time.process_time() - cpu
            db_log.removeHandler(counter)
            db_log.setLevel(logging.WARNING)
    finally:
        await close_db()
    served.sort()
    return {"floor": commands / floor_time, "service": commands / service_time,
            "floor_p50": statistics.median(floored) * 1000,
            "p50": statistics.median(served) * 1000,
            "p99": served[min(len(served) - 1, int(len(served) * 0.99))] * 1000,
            "floor_cpu": floor_cpu / commands * 1000, "cpu": service_cpu / commands * 1000,
            "queries": counter.count / commands if count_queries else None,
            "seen": counter.seen}


HEAD = (f"{'database':<11}{'games':>6}{'floor/s':>9}{'service/s':>11}{'ratio':>7}"
        f"{'floor p50':>11}{'p50 ms':>8}{'p99 ms':>8}{'cpu ms floor/service':>22}")


def line(database: str, games: int, figures: dict[str, Any]) -> str:
    text = (f"{database:<11}{games:>6}{figures['floor']:>9.0f}{figures['service']:>11.0f}"
            f"{figures['service'] / figures['floor']:>7.2f}{figures['floor_p50']:>11.2f}"
            f"{figures['p50']:>8.2f}{figures['p99']:>8.2f}"
            f"{figures['floor_cpu']:>14.2f} /{figures['cpu']:>6.2f}")
    if figures["queries"] is not None:
        text += f"  {figures['queries']:.1f} statements/command (+ BEGIN, COMMIT)"
    return text


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, nargs="*", default=[1, 100, 1000])
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--postgres",
                        default="postgres://postgres@127.0.0.1:5432/nightfall_bench")
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--skip-sqlite", action="store_true")
    parser.add_argument("--fresh", action="store_true",
                        help="make the PostgreSQL games anew (not from the kept copy)")
    parser.add_argument("--queries", action="store_true",
                        help="count the statements per service command (and list them)")
    args = parser.parse_args()
    print(HEAD)
    for games in args.games:
        runs: list[tuple[str, dict[str, Any]]] = []
        if not args.skip_sqlite:
            with tempfile.TemporaryDirectory() as folder:
                url = f"sqlite://{Path(folder) / 'bench.sqlite3'}"
                runs.append(("sqlite", await measure(url, games, args.commands, args.queries)))
            print(line("sqlite", games, runs[-1][1]), flush=True)
        if not args.skip_postgres:
            template = None if args.fresh else template_name(args.postgres, games)
            made = await reset_postgres(args.postgres, template)
            runs.append(("postgresql", await measure(args.postgres, games, args.commands,
                                                     args.queries, made, template)))
            print(line("postgresql", games, runs[-1][1]), flush=True)
        if args.queries:
            for database, figures in runs:
                print(f"  {database}, {games} games, statements per command:")
                for sql, n in sorted(figures["seen"].items(), key=lambda kv: -kv[1]):
                    print(f"    {n / args.commands:5.2f}  {sql}")


if __name__ == "__main__":
    asyncio.run(main())
