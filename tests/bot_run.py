"""A bot a test starts with `nightfall run`: its `nightfall.toml` (one place that knows the
file's sections, so that a test says only what is its own: the database, the platform, the
health port, how much to log), a free port for it, and the wait until it is healthy."""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path
from typing import Any

import aiohttp
import tomli_w

NIGHTFALL = Path(sys.executable).parent / "nightfall"

# the tests' servers (the fake Bot API, the test Synapse) have no flood control: deliver at once
UNLIMITED: dict[str, Any] = {"per_chat": 0, "per_group_minute": 0, "overall": 0}


def write_config(path: Path, *, database: str, port: int,
                 telegram: dict[str, Any] | None = None, matrix: dict[str, Any] | None = None,
                 log_level: str = "WARNING", log_format: str | None = None,
                 **database_options: Any) -> Path:
    """Writes `path` and returns it. `telegram` and `matrix` are their sections without
    `enabled` (a `rates` key becomes the platform's `[<platform>.rates]` table)."""
    sections: dict[str, Any] = {"database": {"url": database, **database_options}}
    for platform, section in (("telegram", telegram), ("matrix", matrix)):
        if section is not None:
            sections[platform] = {"enabled": True, **section}
    sections["http"] = {"enabled": True, "port": port}
    sections["log"] = {"level": log_level} | ({"format": log_format} if log_format else {})
    path.write_text(tomli_w.dumps(sections), encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def wait_healthy(url: str, timeout: float = 120.0,
                       process: asyncio.subprocess.Process | None = None) -> dict:
    """The health report once the bot says it is healthy. A start takes a few seconds on an
    idle machine and many times that on a loaded one (the interpreter, the imports, the
    database): the wait is generous, and ends at once if the `process` died."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    async with aiohttp.ClientSession() as http:
        while True:
            try:
                async with http.get(url) as response:
                    if response.status == 200:
                        return await response.json()
            except aiohttp.ClientError:
                pass
            assert process is None or process.returncode is None, \
                f"the bot exited ({process.returncode}) before it became healthy"
            assert loop.time() < deadline, f"the bot never became healthy in {timeout:.0f} s"
            await asyncio.sleep(0.1)
