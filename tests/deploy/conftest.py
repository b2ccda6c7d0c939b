"""Fixtures for the container test: the image (built once per run), a PostgreSQL database of
its own on the machine's server, and the fake Telegram Bot API.

Without podman, runc or mmdebstrap the test is skipped on a developer's machine; CI sets
NIGHTFALL_REQUIRE_CONTAINER=1 (.ci/run installs them), and there a missing tool fails."""

from __future__ import annotations

import os
import time

import asyncpg
import pytest

from tests.service.conftest import SERVER, _running
from tests.telegram.fake_botapi import FakeBotAPI, assert_no_violations

from . import podman

DATABASE_PREFIX = "nightfall_image_"


@pytest.fixture(scope="session")
def image() -> str:
    """The image of this checkout, built on the local Debian base; the id is what runs."""
    missing = podman.missing_tools()
    if missing:
        message = f"the container test needs {', '.join(missing)}"
        if os.environ.get("NIGHTFALL_REQUIRE_CONTAINER") == "1":
            pytest.fail(message + " (NIGHTFALL_REQUIRE_CONTAINER=1)")
        pytest.skip(message)
    started = time.monotonic()
    base = podman.base_image()
    made = time.monotonic()
    built = podman.build_image(base)
    print(f"\ncontainer image: base {made - started:.1f} s, build {time.monotonic() - made:.1f} s")
    return built


@pytest.fixture
async def database() -> str:
    """A fresh database for the container's bot, dropped afterwards (and those of runs whose
    process is gone, should one have been killed)."""
    name = f"{DATABASE_PREFIX}{os.getpid()}"
    conn = await asyncpg.connect(SERVER)
    try:
        for (old,) in await conn.fetch("SELECT datname FROM pg_database WHERE datname LIKE $1",
                                       DATABASE_PREFIX.replace("_", "\\_") + "%"):
            pid = old.rsplit("_", 1)[1]
            if old == name or (pid.isdigit() and not _running(int(pid))):
                await conn.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    yield f"{SERVER.rsplit('/', 1)[0]}/{name}"
    conn = await asyncpg.connect(SERVER)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture
async def api():
    """The fake Bot API on 127.0.0.1, which the container reaches over the host's network;
    the test fails if the bot sent it anything Telegram would refuse."""
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()
    assert_no_violations(server)
