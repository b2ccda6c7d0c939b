"""The group remembers (issue 31): a game place's language, pace, time zone, role list and
options are kept for its next games, unless set with `--once`; `/settings reset` forgets
them; a forum topic's settings are its own. And the sign-up shows the whole set-up, one
message edited as it changes, instead of a confirmation per setting."""

from __future__ import annotations

from core.service import ChatRef, Command, Incoming, UserRef
from core.service.rows.place_settings import place_settings
from core.storage.models import Chat, GameRecord, Outbox
from core.storage.places import PlaceSettingsRow

from .helpers import PLAYERS, open_chat, the_game

ROLES = "Отец, lust, зависть, Pride, ishvalan, crimson, greed"
DEALT = ["father", "lust", "envy", "pride", "ishvalan", "crimson", "greed"]
JOINS = tuple(f"{p}: /join" for p in PLAYERS[1:])


async def test_the_sign_up_shows_the_set_up_and_is_edited_not_confirmed(db_url):
    chat = await open_chat(db_url)
    opened = await chat("Ann: /newgame alchemists")
    assert "[group] Roles: the rules' deal for 1 player." in opened
    assert "[group] Pace: quick, time zone Europe/Berlin." in opened
    await chat(*JOINS)
    changed = await chat("Ann: /pace forum Europe/Moscow", "Ann: /option stone_backfire never",
                         f"Ann: /setroles {ROLES}")
    # the console prints only what an edit added: each setting is one new line of the
    # sign-up, no "Setting changed" of its own
    assert not any("Setting changed" in line for line in changed)
    assert "[group] Pace: forum, time zone Europe/Moscow." in changed
    assert "[group] Changed from the defaults: the Stone's backfire: never." in changed
    assert any(line.startswith("[group] The 7 roles to deal: Father, Lust, Envy")
               for line in changed)
    row = await the_game()  # every one of them an edit of the sign-up
    assert [r.payload.get("replace") for r in await Outbox.filter(private=False)
            .order_by("-id").limit(3)] == [f"signup-{row.id}"] * 3


async def test_a_second_game_starts_with_the_groups_settings(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame alchemists", *JOINS, "Ann: /pace forum Europe/Moscow",
               "Ann: /option stone_backfire never", f"Ann: /setroles {ROLES}",
               "Ann: /language de", "Ann: /language en")
    status = " ".join(await chat("Ann: /status"))
    assert ("This group's settings, which its next games start with: language English, pace "
            "forum, time zone Europe/Moscow.") in status
    assert "For Alchemists the 7 roles to deal: Father, Lust, Envy" in status
    assert "For Alchemists: the Stone's backfire: never." in status
    await chat("Ann: /startgame", "Ann: /endgame", "Ann> [End the game]")
    second = await chat("Bob: /newgame alchemists")
    row = await the_game()
    assert row.host_id != (await GameRecord.filter().order_by("id").first()).host_id
    assert row.settings["pace"] == "forum" and row.settings["tz"] == "Europe/Moscow"
    assert row.settings["roles"] == DEALT
    assert row.settings["options"] == {"stone_backfire": "never"}
    assert "[group] Pace: forum, time zone Europe/Moscow." in second
    assert "[group] Changed from the defaults: the Stone's backfire: never." in second
    # another rule set has other roles and options: only the place's own settings carry over
    await chat("Bob: /endgame", "Bob> [End the game]", "Bob: /newgame changelings")
    row = await the_game()
    assert row.ruleset == "changelings" and row.settings["pace"] == "forum"
    assert row.settings["roles"] is None and row.settings["options"] == {}


async def test_once_is_for_this_game_only_and_reset_forgets(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame alchemists", "Ann: /option stone_backfire never")
    once = await chat("Ann: /option stone_backfire always --once", "Ann: /pace forum --once",
                      "Ann: /language de --once")
    assert "[group] For this game only (the group keeps its own): the Stone's backfire and pace." \
        in once
    row = await the_game()
    assert row.settings["options"] == {"stone_backfire": "always"}
    assert set(row.settings["once"]) == {"stone_backfire", "pace", "language"}
    assert (await Chat.get(id=row.chat_id)).locale == "de"
    await chat("Ann: /endgame", "Ann> [Spiel beenden]", "Ann: /newgame alchemists")
    row = await the_game()
    assert row.settings["options"] == {"stone_backfire": "never"}
    assert row.settings["pace"] == "quick"
    assert (await Chat.get(id=row.chat_id)).locale == "en"  # the group's own language again
    # the same setting again without --once is the group's again
    await chat("Ann: /pace forum --once", "Ann: /pace forum")
    assert (await the_game()).settings["once"] == []
    refused = " ".join(await chat("Bob: /settings reset"))
    assert "host" in refused.lower()
    forgot = " ".join(await chat("Ann: /settings reset"))
    assert "settings are forgotten" in forgot
    assert await PlaceSettingsRow.all().count() == 0
    assert "keeps no settings of its own" in " ".join(await chat("Ann: /settings"))
    await chat("Ann: /endgame", "Ann> [End the game]", "Ann: /newgame alchemists")
    row = await the_game()
    assert row.settings["options"] == {} and row.settings["pace"] == "quick"


async def test_a_forum_topic_keeps_its_own_settings(db_url):
    """Two topics of one forum are two game places: one's settings never reach the other's
    games."""
    chat = await open_chat(db_url)
    service = chat.session.service
    count = 0

    async def say(topic: str, text: str) -> None:
        nonlocal count
        count += 1
        word, _, rest = text[1:].partition(" ")
        await service.handle(Incoming(
            platform="console", update_id=f"topic-{count}", user=UserRef("Ann"),
            user_name="Ann", text=text, chat=ChatRef("forum", topic),
            command=Command(word, rest)))
        await chat.session.pump()

    await say("7", "/newgame alchemists")
    await say("7", "/pace forum Asia/Tokyo")
    await say("7", "/option stone_backfire never")
    await say("7", "/endgame")
    await chat("Ann> [End the game]")
    await say("8", "/newgame alchemists")
    eight = await the_game()
    assert (await eight.chat).ref == "forum#8"
    assert eight.settings["pace"] == "quick" and eight.settings["options"] == {}
    await say("8", "/endgame")
    await chat("Ann> [End the game]")
    await say("7", "/newgame alchemists")
    seven = await the_game()
    assert seven.settings["pace"] == "forum" and seven.settings["tz"] == "Asia/Tokyo"
    topics = {c.ref: c.id for c in await Chat.filter(ref__startswith="forum#")}
    assert (await place_settings().get(topics["forum#8"])).empty()
    assert (await place_settings().get(topics["forum#7"])).pace == "forum"
