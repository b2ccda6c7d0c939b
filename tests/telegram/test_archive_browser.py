"""A real browser reads an archive page served by `nightfall run` (serving Telegram through
the fake Bot API; the games were played on the console, in the same database): Debian's Chromium,
headless, loads a finished game's page at its random token and shows every player and every
day (and takes a screenshot); a running game's page, a game's id and a made-up token are
refused and name nobody."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
from pathlib import Path

import aiohttp
import pytest

from core.storage.db import close_db
from core.story.archive import archived
from core.story.texts import Words
from tests.bot_run import NIGHTFALL, free_port, wait_healthy
from tests.service.helpers import PLAYERS, the_game
from tests.service.test_admin import a_finished_game

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed "
                                "(.ci/run installs it)")


def chromium(tmp_path: Path, *args: str) -> str:
    profile = tmp_path / f"chromium-{len(list(tmp_path.iterdir()))}"
    done = subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={profile}", "--window-size=412,3000", *args],
        capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


async def test_chromium_reads_a_finished_games_page_and_is_refused_a_running_one(api, tmp_path):
    db_url = f"sqlite://{tmp_path / 'bot.sqlite3'}"
    chat, finished = await a_finished_game(db_url)
    story = (await archived(finished.id)).story
    await chat("Ann: /newgame", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /option random_lovers false", "Ann: /startgame")
    running = await the_game()
    assert running.status == "running" and running.id != finished.id
    token = finished.archive_token
    assert token and running.archive_token is None
    await chat.session.stop()
    await close_db()

    port = free_port()
    config = tmp_path / "nightfall.toml"
    config.write_text(f'[database]\nurl = "{db_url}"\n[telegram]\nenabled = true\n'
                      f'api_url = "{api.base_url}"\n[http]\nenabled = true\nport = {port}\n'
                      f'public_url = "http://127.0.0.1:{port}"\n', encoding="utf-8")
    process = await asyncio.create_subprocess_exec(
        str(NIGHTFALL), "run", "--config", str(config),
        env={**os.environ, "NIGHTFALL_TELEGRAM__TOKEN": api.token},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await wait_healthy(f"http://127.0.0.1:{port}/healthz")
        page = f"http://127.0.0.1:{port}/games/{token}?lang=en"
        dom = await asyncio.to_thread(chromium, tmp_path, "--dump-dom", page)
        for name in PLAYERS:
            assert name in dom
        words = Words(story, "en")
        for when in story.rounds:
            assert f"<h2>{words.when(when)}</h2>" in dom
        assert "<svg" in dom  # the vote graphs
        shot = tmp_path / "archive.png"
        await asyncio.to_thread(chromium, tmp_path, f"--screenshot={shot}", page)
        assert shot.stat().st_size > 10_000

        secret = f"http://127.0.0.1:{port}/games/{running.id}"
        by_id = f"http://127.0.0.1:{port}/games/{finished.id}"  # ids are counted, not served
        made_up = f"http://127.0.0.1:{port}/games/{'A' * len(token)}"
        async with aiohttp.ClientSession() as http:
            for url in (secret, secret + ".png", by_id, by_id + ".png", made_up,
                        f"http://127.0.0.1:{port}/games/999"):
                async with http.get(url) as response:
                    assert response.status == 404
                    body = await response.text()
                    assert not any(name in body for name in PLAYERS)
            async with http.get(f"http://127.0.0.1:{port}/games/{token}.png") as response:
                assert response.status == 200 and response.content_type == "image/png"
        refused = await asyncio.to_thread(chromium, tmp_path, "--dump-dom", secret)
        assert not any(name in refused for name in PLAYERS)
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 0, stderr.decode()[-2000:]
