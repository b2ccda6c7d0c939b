"""`nightfall run` when a platform is not there (issue: a host's first game): the health
endpoint comes up first and shows the platform down while it is tried again with back-off;
a token Telegram refuses ends the process with one line and a non-zero exit."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import aiohttp

from tests.bot_run import NIGHTFALL, free_port, write_config

from .fake_botapi import FakeBotAPI


def config_for(tmp_path: Path, api_url: str, port: int) -> Path:
    return write_config(tmp_path / "nightfall.toml",
                        database=f"sqlite://{tmp_path / 'bot.sqlite3'}", port=port,
                        telegram={"api_url": api_url, "request_timeout": 2.0},
                        log_format="text")


async def health_of(port: int) -> tuple[int, dict] | None:
    try:
        async with aiohttp.ClientSession() as http, \
                http.get(f"http://127.0.0.1:{port}/healthz") as response:
            return response.status, await response.json()
    except aiohttp.ClientError:
        return None


async def test_an_unreachable_telegram_is_retried_and_shown_down(tmp_path):
    port, api_port = free_port(), free_port()
    config = config_for(tmp_path, f"http://127.0.0.1:{api_port}/bot", port)
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(config),
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": "123456:TEST-token"},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    api = None
    try:
        seen = None
        for _ in range(600):  # a minute: the process starts slowly on a loaded machine
            seen = await health_of(port)
            if seen is not None:
                break
            await asyncio.sleep(0.1)
        assert seen is not None, "the health endpoint never came up"
        status, checks = seen
        assert status == 503 and checks["adapters"] == {"telegram": False}
        api = FakeBotAPI(port=api_port)  # Telegram comes back
        await api.start()
        for _ in range(150):
            seen = await health_of(port)
            if seen is not None and seen[0] == 200:
                break
            await asyncio.sleep(0.2)
        assert seen is not None and seen[0] == 200, seen
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
        if api is not None:
            await api.stop()
    text = stderr.decode()
    assert process.returncode == 0, text[-2000:]
    assert "Traceback" not in text, text[-2000:]
    assert "cannot connect" in text


async def test_a_refused_token_exits_with_one_line(api, tmp_path):
    port = free_port()
    config = config_for(tmp_path, api.base_url, port)
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(config),
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": "999:wrong-token"},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    text = stderr.decode()
    assert process.returncode != 0
    assert "Traceback" not in text, text[-2000:]
    assert "telegram: the token was refused" in text
