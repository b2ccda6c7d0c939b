"""`nightfall run` with its database down at start: it waits `[database] start_timeout`
seconds, then says in ONE line (after the version line it starts with), in the configured log
format, what it could not reach and exits with 1 (no traceback). (A database that comes up
within the wait is simply used: test_outage_game.py starts its bot so.)"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from tests.bot_run import NIGHTFALL, free_port, write_config


def config(tmp_path: Path, url: str, api_url: str, timeout: float, port: int) -> Path:
    return write_config(tmp_path / "nightfall.toml", database=url, start_timeout=timeout,
                        port=port, telegram={"api_url": api_url}, log_level="INFO",
                        log_format="json")


async def test_a_database_that_never_answers_ends_the_start_in_one_line(tmp_path, api):
    dead = free_port()  # nothing listens there
    path = config(tmp_path, f"postgres://bot:secret@127.0.0.1:{dead}/games", api.base_url,
                  2, free_port())
    loop = asyncio.get_running_loop()
    began = loop.time()
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(path),
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": api.token},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    took = loop.time() - began
    print(f"gave up after {took:.1f} s (start_timeout 2 s)")
    assert process.returncode == 1
    text = stderr.decode() + stdout.decode()
    assert "Traceback" not in text
    entries = [json.loads(line) for line in text.splitlines() if line.strip()]
    # the version line a host reads first ("nightfall 0.1.0 starting"), then the one error
    assert [entry["level"] for entry in entries] == ["INFO", "ERROR"], entries
    assert entries[0]["message"].startswith("nightfall ")
    entry = entries[1]
    assert entry["level"] == "ERROR"
    assert entry["message"].startswith("database unreachable: ")
    assert f"postgres://127.0.0.1:{dead}/games" in entry["message"]
    assert "secret" not in entry["message"]
    assert 2 <= took < 15
