"""A player's private chat speaks his language from the first message: his own /language,
else what his platform says he reads, else the language of the game he signed up for."""

from .helpers import open_chat


async def test_private_help_is_in_the_language_of_the_players_game(db_url):
    chat = await open_chat(db_url, locale="ru")
    await chat("Ann: /newgame changelings", "Cid: /join")
    helped = " ".join(await chat("Cid> /help"))
    assert "Присылай мне ночные действия" in helped, helped
    assert "Send me your night actions" not in helped


async def test_private_help_outside_any_game_is_in_the_source_language(db_url):
    chat = await open_chat(db_url, locale="ru")
    assert "Send me your night actions" in " ".join(await chat("Zed> /help"))
