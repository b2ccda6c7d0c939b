"""The archive of finished games from stored rows: the story and its page for a game that
ended, nothing for one still running, the team chat only where the host allowed it, names
gone after `forget`; `nightfall games` and `nightfall archive`."""

from __future__ import annotations

import asyncio
from pathlib import Path

from click.testing import CliRunner

from core.admin import forget_person
from core.cli import main
from core.storage.db import close_db
from core.story.archive import TEAM_CHATS_SETTING, archived
from core.story.page import archive_page

from .helpers import PLAYERS, open_chat, the_game
from .test_admin import a_finished_game


async def test_a_finished_game_has_its_story_with_every_player_and_day(db_url):
    chat, row = await a_finished_game(db_url)
    found = await archived(row.id)
    assert found is not None and found.story.winners == ("ponies",)
    page = archive_page(found.story, "en")
    for name in PLAYERS:
        assert name in page
    for when in found.story.rounds:
        assert f'id="{when.kind}-{when.number}"' in page
    assert "<script" not in page
    gus = next(p for p in found.story.players if p.name == "Gus")
    assert gus.role == "changeling" and gus.fate is not None and gus.fate.cause == "banished"
    assert "Bob it is" not in page  # the team chat stays closed unless the host allowed it
    row.settings = {**row.settings, TEAM_CHATS_SETTING: True}
    await row.save(update_fields=["settings"])
    allowed = await archived(row.id)
    assert allowed is not None and allowed.team_chats
    assert "Bob it is" in archive_page(allowed.story, "de", allowed.team_chats)
    await chat.session.stop()


async def test_forget_takes_the_name_off_the_page(db_url):
    chat, row = await a_finished_game(db_url)
    await forget_person("console", "Gus")
    found = await archived(row.id)
    assert found is not None
    page = archive_page(found.story, "ru", team_chats=True)
    assert "Gus" not in page and "Bob it is" not in page
    assert "Ann" in page
    await chat.session.stop()


async def test_a_running_game_has_no_story(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /option random_lovers false", "Ann: /startgame")
    row = await the_game()
    assert row.status == "running"
    assert await archived(row.id) is None
    assert await archived(row.id + 1000) is None
    assert row.archive_token is None  # nothing to find the game by, either
    await chat.session.stop()


def test_the_command_line_lists_games_and_writes_a_page(tmp_path):
    db_url = f"sqlite://{tmp_path / 'bot.sqlite3'}"

    async def play() -> int:
        chat, row = await a_finished_game(db_url)
        await chat.session.stop()
        await close_db()
        return row.id

    game_id = asyncio.run(play())
    runner = CliRunner()
    listed = runner.invoke(main, ["games", "--db", db_url])
    assert listed.exit_code == 0, listed.output
    assert f"{game_id}" in listed.output and "ended" in listed.output
    [line] = [line for line in listed.output.splitlines() if "ended" in line]
    path = line.split()[-1]
    assert path.startswith("/games/") and len(path) == len("/games/") + 22  # id and link
    config = tmp_path / "nightfall.toml"
    config.write_text('[http]\npublic_url = "https://games.example.org/"\n', encoding="utf-8")
    linked = runner.invoke(main, ["games", "--db", db_url, "--config", str(config)])
    assert f"https://games.example.org{path}" in linked.output
    out = tmp_path / "game.html"
    written = runner.invoke(main, ["archive", str(game_id), "-o", str(out), "--db", db_url,
                                   "--locale", "de"])
    assert written.exit_code == 0, written.output
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and 'lang="de"' in html and "Gus" in html
    refused = runner.invoke(main, ["archive", "999", "-o", str(out), "--db", db_url])
    assert refused.exit_code != 0 and "secret" in refused.output


async def test_the_host_allows_the_team_chats_on_the_page_before_the_start(db_url):
    from .helpers import open_chat
    from .test_admin import SCRIPT

    chat = await open_chat(db_url, seed=11)
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    said = "\n".join(await chat(lines[2], "Bob: /archivechats on", "Ann: /archivechats"))
    assert "Only the host" in said and "Now: off." in said
    await chat("Ann: /archivechats on", *lines[3:])
    row = await the_game()
    found = await archived(row.id)
    assert found is not None and found.team_chats
    assert "Bob it is" in archive_page(found.story, "en", found.team_chats)
    said = "\n".join(await chat("Ann: /archivechats off"))
    assert "no game" in said.lower()  # the setting is made before a game starts, not after
    await chat.session.stop()


async def test_the_end_of_a_game_links_its_archive_page_where_one_is_served(db_url):
    from .helpers import open_chat
    from .test_admin import SCRIPT

    chat = await open_chat(db_url, seed=11)
    assert chat.session.service is not None
    chat.session.service.games.held.public_url = "https://games.example.org/"
    for line in SCRIPT.read_text(encoding="utf-8").splitlines():
        await chat.session.feed(line)
    row = await the_game()
    assert row.status == "ended"
    lines = chat.all()
    assert row.archive_token and len(row.archive_token) == 22
    link = f"https://games.example.org/games/{row.archive_token}"
    linked = [i for i, line in enumerate(lines) if link in line]
    assert len(linked) == 1 and "The whole story, day by day" in lines[linked[0]]
    assert not any("games.example.org" in line for line in lines[:linked[0]])
    await chat.session.stop()


async def test_without_a_public_url_the_end_has_no_link(db_url):
    chat, _ = await a_finished_game(db_url)
    assert not any("/games/" in line for line in chat.all())
    await chat.session.stop()


async def test_the_end_of_a_game_is_at_most_three_group_messages(db_url):
    from core.storage.models import Outbox

    from .helpers import open_chat
    from .test_admin import SCRIPT

    chat = await open_chat(db_url, seed=11)
    assert chat.session.service is not None
    chat.session.service.games.held.public_url = "https://games.example.org"
    lines = [line for line in SCRIPT.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    for line in lines[:-1]:
        await chat.session.feed(line)
    before = await Outbox.all().order_by("-id").first()
    await chat.session.feed(lines[-1])
    row = await the_game()
    assert row.status == "ended"
    ending = await Outbox.filter(id__gt=before.id, private=False).order_by("id")
    new_messages = [o.payload["kind"] for o in ending
                    if o.payload["kind"] in ("post", "picture") and not o.payload.get("replace")]
    assert new_messages == ["post", "picture", "post"]  # the summary, the picture, the link
    summary = "\n".join(chat.all())
    for name in ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus"):
        assert f"{name} was" in summary
    # each with role, side and fate; the mayor's line after them
    assert "Ann was a changeling (the changelings): banished on day 3." in summary
    assert "Bob was a pony (the ponies): abducted on night 1." in summary
    assert "Dot was a pony (the ponies) and trotted safely to the very end." in summary
    assert "Only Eve wore the mayor's sash, all game long." in summary
    [shown] = [line for line in chat.all() if "picture: " in line]
    picture = Path(shown.split("picture: ", 1)[1])
    assert picture.read_bytes().startswith(b"\x89PNG")  # the console shows the file's path
    await chat.session.stop()


async def test_a_finished_game_is_found_by_its_token_and_never_by_its_id(db_url):
    from core.story.archive import archived_by_token

    chat, row = await a_finished_game(db_url)
    token = row.archive_token
    found = await archived_by_token(token)
    assert found is not None and found.game_id == row.id
    for guess in (str(row.id), "A" * 22, token[:-1], token + "A", "../" + token):
        assert await archived_by_token(guess) is None
    await chat.session.stop()
