"""The container image is real: built from deploy/Dockerfile (on a local Debian base, as no
registry is reachable here), started against the machine's PostgreSQL and the fake Telegram
Bot API on the host's network, it plays a pony game to day 2, answers /healthz and /metrics
from outside, passes its own HEALTHCHECK, and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import time

import aiohttp
import pytest

from tests.bot_run import free_port, wait_healthy

from .game import Table
from .podman import Container

# the first run on a machine makes the Debian base (mmdebstrap) and builds every wheel
pytestmark = [pytest.mark.container, pytest.mark.timeout(1800)]


async def test_the_image_plays_a_game_reports_health_and_stops_on_sigterm(
        image, database, api, tmp_path):
    port = free_port()
    config = tmp_path / "nightfall.toml"  # mounted where the image's CMD reads it
    config.write_text(f"""
[telegram]
enabled = true
api_url = "{api.base_url}"
[telegram.rates]  # the fake has no flood control: deliver at once
per_chat = 0
per_group_minute = 0
overall = 0
[log]
format = "json"
""", encoding="utf-8")
    config.chmod(0o644)
    container = Container.start(
        image, f"nightfall-test-{os.getpid()}",
        env={"NIGHTFALL_DATABASE__URL": database, "NIGHTFALL_TELEGRAM__TOKEN": api.token,
             "NIGHTFALL_HTTP__PORT": str(port)},  # the image listens on 0.0.0.0 already
        volumes={config: "/etc/nightfall/nightfall.toml"})
    started = time.monotonic()
    try:
        try:
            checks = await wait_healthy(f"http://127.0.0.1:{port}/healthz", timeout=60)
            assert checks["ok"] is True and checks["adapters"] == {"telegram": True}
            healthy = time.monotonic()
            assert await asyncio.to_thread(container.healthcheck) == 0  # the image's own check
            table = Table(api, database)
            await table.sign_up(players=6)
            await table.play_to("day 2", timeout=120)
            played = time.monotonic()
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                    assert response.status == 200, await response.text()
                async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
                    metrics = await response.text()
            assert "nightfall_active_games 1.0" in metrics
            applied = next(line for line in metrics.splitlines()
                           if line.startswith("nightfall_commands_applied_total "))
            assert float(applied.split()[1]) >= 10  # the votes and night actions
        except BaseException:
            print("the container's log:\n" + container.logs()[-20000:])
            raise
        stopping = time.monotonic()
        code = await asyncio.to_thread(container.stop)
        output = container.logs()
        print(f"\ncontainer: healthy after {healthy - started:.1f} s, game to day 2 in "
              f"{played - table.began:.1f} s ({table.progress()}), stopped in "
              f"{time.monotonic() - stopping:.1f} s")
        assert code == 0, output[-4000:]
    finally:
        container.remove()
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    messages = [entry["message"] for entry in lines]
    assert "stopping" in messages and messages[-1] == "stopped", output[-4000:]
    assert "Traceback" not in output and not any(e["level"] in ("ERROR", "CRITICAL")
                                                  for e in lines), output[-4000:]
    assert api.token.split(":")[1] not in output
