"""`/stats` and `/stats group` in the chat: counted per game from finished games, in the
chat's language, and nobody counted by name after `forget`."""

from __future__ import annotations

from core.admin import forget_person

from .test_admin import a_finished_game


async def test_the_senders_record_after_a_finished_game(db_url):
    chat, _ = await a_finished_game(db_url)
    chat.new()
    said = "\n".join(await chat("Ann: /stats"))
    assert "Ann: 1 game finished, 0 won." in said
    assert "Changelings, on the changelings' side: won 0 of 1 game." in said
    assert "Favourite role: Changeling (1 game)." in said
    said = "\n".join(await chat("Eve: /stats"))
    assert "Eve: 1 game finished, 1 won." in said
    assert "Changelings, on the ponies' side: won 1 of 1 game." in said
    await chat.session.stop()


async def test_the_groups_record_and_forget(db_url):
    chat, _ = await a_finished_game(db_url)
    chat.new()
    said = "\n".join(await chat("Bob: /stats group"))
    assert "This chat has finished 1 game." in said
    assert "the ponies won 1 of 1 game (100 %)." in said
    assert "the changelings won 0 of 1 game (0 %)." in said
    assert "The 5 most active: Ann (1), Bob (1)" in said
    await forget_person("console", "Ann")
    said = "\n".join(await chat("Bob: /stats group"))
    assert "Ann" not in said and "forgotten" not in said and "most active: Bob (1)" in said
    assert "This chat has finished 1 game." in said  # the game still counts
    await chat.session.stop()


async def test_in_german_and_russian(db_url):
    chat, _ = await a_finished_game(db_url)
    await chat("Ann: /language ru")
    said = "\n".join(await chat("Ann: /stats group"))
    assert "В этом чате закончена 1 игра." in said
    assert "Понивилль: побед 1 из 1 игры (100 %)." in said
    await chat("Ann: /language de")
    said = "\n".join(await chat("Ann: /stats"))
    assert "Ann: 1 Spiel zu Ende gespielt, 0 gewonnen." in said
    # the game's title and its side no longer collide ("Changelinge, Changelinge")
    assert "Changelings, auf der Seite der Changelinge: 0 von 1 Spiel gewonnen." in said
    await chat.session.stop()


async def test_nobody_has_stats_before_a_game_ends(db_url):
    from .helpers import open_chat

    chat = await open_chat(db_url)
    said = "\n".join(await chat("Ann: /stats", "Ann: /stats group"))
    assert "you have not finished a game yet" in said
    assert "No game has finished in this chat yet." in said
    await chat.session.stop()
