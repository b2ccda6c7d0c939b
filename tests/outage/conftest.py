"""A PostgreSQL server of the outage tests' own: they stop it, start it again and kill its
backends under a running bot, which the machine's shared server must never suffer.

initdb in a temporary directory as the `postgres` user (via runuser when the tests run as
root), a free port, trust authentication, `pg_ctl` to start and stop. The tests are skipped
only where the server's binaries are missing."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg
import pytest

from tests.bot_run import free_port
from tests.telegram.conftest import _no_botapi_violations, api  # noqa: F401  (the fixtures)

BIN = Path(os.environ.get("NIGHTFALL_PG_BIN", "/usr/lib/postgresql/15/bin"))


class OwnPostgres:
    def __init__(self, root: Path, port: int) -> None:
        self.root = root
        self.data = root / "data"
        self.port = port
        self.counter = 0

    def _as_postgres(self, *command: str) -> list[str]:
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *command]
        return list(command)

    def _run(self, *command: str) -> None:
        subprocess.run(self._as_postgres(*command), check=True, capture_output=True,
                       timeout=60)

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        self._run(str(BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "--no-sync", "-E", "UTF8")
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write(f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{self.root}'\nfsync = off\n"
                       "synchronous_commit = off\nfull_page_writes = off\n")

    def start(self) -> None:
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"),
                  "-w", "-t", "30", "start")

    def stop(self) -> None:
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    @property
    def server(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    async def new_database(self) -> str:
        """A fresh database on the server: its URL."""
        self.counter += 1
        name = f"outage_{self.counter}"
        conn = await asyncpg.connect(self.server)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    async def terminate_backends(self, database: str) -> int:
        """Kill every backend of `database` (as a failing server or a DBA would)."""
        conn = await asyncpg.connect(self.server)
        try:
            rows = await conn.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = $1 AND pid <> pg_backend_pid()", database)
            return len(rows)
        finally:
            await conn.close()

    async def stop_async(self) -> None:
        await asyncio.to_thread(self.stop)

    async def start_async(self) -> None:
        await asyncio.to_thread(self.start)


@pytest.fixture(scope="session")
def own_postgres():
    if not (BIN / "initdb").exists() or (os.geteuid() == 0 and shutil.which("runuser") is None):
        pytest.skip(f"no PostgreSQL server binaries in {BIN}")
    root = Path(tempfile.mkdtemp(prefix="nightfall-pg-"))
    server = OwnPostgres(root, free_port())
    server.init()
    server.start()
    try:
        yield server
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            server.stop()  # (already stopped by a failed test)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres(own_postgres):
    """The server, running (a test that stopped it and failed does not leave it down)."""
    with contextlib.suppress(subprocess.CalledProcessError):
        own_postgres.start()  # (running already)
    yield own_postgres
