"""The host's tools over stored games, on SQLite and PostgreSQL: export of a finished game,
the community's statistics, forgetting a person."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.admin import AdminError, community_stats, export_game, forget_person
from core.storage.models import Identity

from .helpers import open_chat, the_game

SCRIPT = Path(__file__).resolve().parent.parent / "e2e" / "scripts" / "changelings_full_game.play"


async def a_finished_game(db_url):
    chat = await open_chat(db_url, seed=11)
    for line in SCRIPT.read_text(encoding="utf-8").splitlines():
        await chat.session.feed(line)
    row = await the_game()
    assert row.status == "ended"
    return chat, row


async def test_export_stats_and_forget(db_url):
    chat, row = await a_finished_game(db_url)
    exported = await export_game(row.id)
    assert exported["ruleset"] == "changelings" and exported["status"] == "ended"
    assert exported["winners"] == ["ponies"]
    assert {p["name"]: p["role"] for p in exported["players"]}["Gus"] == "changeling"
    gus = next(p["pid"] for p in exported["players"] if p["name"] == "Gus")
    assert len(exported["log"]) > 20 and exported["log"][0]["seq"] == 1

    stats = await community_stats()
    assert stats["games"] == {"changelings": 1}
    sides = {s["side"]: s for s in stats["sides"]}
    assert sides["ponies"]["win_rate"] == 1.0 and sides["changelings"]["win_rate"] == 0.0
    # per game, not per seat: one game, each side played once
    assert sides["ponies"]["played"] == 1 and sides["changelings"]["played"] == 1
    assert {e["name"] for e in stats["most_active"]} >= {"Ann", "Gus"}

    assert await forget_person("console", "Gus") == 1
    exported = await export_game(row.id)
    names = {p["name"] for p in exported["players"]} | {s["name"] for s in exported["seats"]}
    assert "Gus" not in names
    whispers = [e["command"] for e in exported["log"] if e["command"]["type"] == "Whisper"]
    his = [w for w in whispers if w["by"] == gus]
    assert his and all(w["text"] == "…" for w in his)  # "Bob it is" is gone
    assert await Identity.filter(name="Gus").count() == 0
    assert (await community_stats())["games"] == {"changelings": 1}  # the game stays whole
    await chat.session.stop()


async def test_running_games_are_not_exported_and_their_players_not_forgotten(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame", "Bob: /join")
    row = await the_game()
    with pytest.raises(AdminError, match="secret"):
        await export_game(row.id)
    with pytest.raises(AdminError, match="not over"):
        await forget_person("console", "Bob")
    with pytest.raises(AdminError, match="nobody"):
        await forget_person("console", "Zed")
    await chat.session.stop()


async def test_leaving_the_sign_up_and_joining_again_is_one_game(db_url):
    chat, _ = await a_finished_game(db_url)
    await chat("Ann: /newgame changelings", "Bob: /join", "Bob: /leave", "Bob: /join",
               *(f"{p}: /join" for p in ("Cid", "Dot", "Eve", "Fay", "Gus")),
               "Ann: /option random_lovers false", "Ann: /startgame")
    active = {e["name"]: e["games"] for e in (await community_stats())["most_active"]}
    assert active["Bob"] == 2  # the finished game and this one
    await chat.session.stop()


def test_stats_without_a_database_creates_none(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from core.cli import main

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["stats"])
    assert result.exit_code != 0 and "no database" in result.output
    assert not (tmp_path / "nightfall.sqlite3").exists()
