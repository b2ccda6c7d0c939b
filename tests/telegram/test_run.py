"""`nightfall run` as a real process: configured by a file and the environment, serving a
Telegram group through the fake Bot API, answering /healthz and /metrics, and stopping
cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import aiohttp

from tests.bot_run import NIGHTFALL, free_port, wait_healthy, write_config


async def test_run_serves_telegram_reports_health_and_stops_on_sigterm(api, tmp_path):
    port = free_port()
    config = write_config(tmp_path / "nightfall.toml",
                          database=f"sqlite://{tmp_path / 'bot.sqlite3'}", port=port,
                          telegram={"api_url": api.base_url}, log_level="DEBUG",
                          log_format="json")
    environment = {**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": api.token}  # secrets by env
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(config), env=environment,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        checks = await wait_healthy(f"http://127.0.0.1:{port}/healthz")
        assert {k: checks[k] for k in ("database", "adapters", "scheduler", "ok")} == {
            "database": True, "adapters": {"telegram": True}, "scheduler": True, "ok": True}
        ann = api.user("Ann")
        group = api.group("Game night", members=[ann])
        await ann.send("/newgame alchemists", chat=group)
        await api.wait_for(lambda: api.messages(group), timeout=10)
        async with aiohttp.ClientSession() as http, \
                http.get(f"http://127.0.0.1:{port}/metrics") as response:
            metrics = await response.text()
        assert "nightfall_commands_applied_total 1.0" in metrics
        checks = await wait_healthy(f"http://127.0.0.1:{port}/healthz")  # polling caught up
        assert checks["caught_up"] is True and checks["waiting"] == []
        assert checks["receiving"] == {"telegram": {"backoff": 0.0, "unconfirmed": 0}}
        assert checks["last_command"] is not None and checks["last_delivery_round"] < 5
        assert checks["over_budget"] == []  # one game is far within the token's budget
        assert checks["delivery"]["telegram"]["over_budget"] is False
        assert 'nightfall_outbox_backlog{platform="telegram"}' in metrics
        assert "nightfall_active_games 0.0" in metrics  # in sign-up, not running yet
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 0, stderr.decode()[-2000:]
    lines = [json.loads(line) for line in stderr.decode().splitlines() if line.startswith("{")]
    assert any(entry["message"] == "stopped" for entry in lines)
    assert api.token.split(":")[1] not in stderr.decode()  # even at DEBUG
