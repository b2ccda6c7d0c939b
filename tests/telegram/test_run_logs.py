"""What a host reads in the log of `nightfall run` (issue 32, problem 8): the first line says
which version starts (not tortoise's "Tortoise-ORM shutdown"), the libraries' INFO chatter is
not there, and a token Telegram refuses is not printed, neither in the log nor in the error
(and /healthz says which version runs)."""

from __future__ import annotations

import asyncio
import os
import signal

from core import __version__
from tests.bot_run import NIGHTFALL, free_port, wait_healthy, write_config

# shaped like a real token, and not the fake Bot API's: refused
OURS = ("core.", "adapters.", "rulesets.")
REFUSED = "7715293846:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"


def config(tmp_path, api_url: str, port: int, level: str):
    return write_config(tmp_path / "nightfall.toml",
                        database=f"sqlite://{tmp_path / 'bot.sqlite3'}", port=port,
                        telegram={"api_url": api_url}, log_level=level, log_format="text")


async def test_a_refused_token_is_not_printed(api, tmp_path):
    path = config(tmp_path, api.base_url, free_port(), "DEBUG")
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(path),
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": REFUSED},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    text = stdout.decode() + stderr.decode()
    assert process.returncode != 0
    assert "telegram: the token was refused" in text
    assert REFUSED not in text and REFUSED.split(":")[1] not in text, text[-2000:]


async def test_the_log_at_info_starts_with_the_version_and_has_no_library_chatter(api,
                                                                                 tmp_path):
    port = free_port()
    path = config(tmp_path, api.base_url, port, "INFO")
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(path),
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": api.token},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        checks = await wait_healthy(f"http://127.0.0.1:{port}/healthz", process=process)
        assert checks["version"] == __version__  # packaging: what runs, for the host
        ann = api.user("Ann")
        group = api.group("Game night", members=[ann])
        await ann.send("/newgame", chat=group)
        await api.wait_for(lambda: api.messages(group), timeout=30)
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    lines = stderr.decode().splitlines()
    assert process.returncode == 0, lines[-20:]
    assert lines[0].endswith(f"INFO nightfall: nightfall {__version__} starting"), lines[:3]
    assert not any("Tortoise-ORM" in line for line in lines)
    loggers = {line.split()[3].rstrip(":") for line in lines if " INFO " in line}
    assert all(name == "nightfall" or name.startswith(OURS) for name in loggers), lines
