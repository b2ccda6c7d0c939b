"""The group remembers and the game at a glance (issue 31), through the real PTB stack
against the fake Bot API: the sign-up is one message, edited in place as players join and
the host changes the set-up; the next game in the same forum topic starts with the topic's
settings, and another topic's game with its own."""

from __future__ import annotations

from core.storage.models import GameRecord

from .harness import confirm, open_table, start_payload

ROLES = "/setroles Отец, lust, зависть, Pride, ishvalan, crimson, greed"


def sign_ups(topic) -> list:
    return [m for m in topic.messages() if m.from_bot and "opens a game" in m.text]


async def test_the_sign_up_is_edited_in_place_and_the_topic_remembers(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 8, forum=True)
    games = table.group.create_topic("Games", by=table.host)
    other = table.group.create_topic("Another table", by=table.host)
    ann, bob = table.host, table.users["Bob"]
    try:
        await ann.send("/newgame alchemists", chat=games)
        await table.settle()
        [signup] = sign_ups(games)
        assert "Roles: the rules' deal for 1 player." in signup.text
        payload = start_payload(signup)
        for user in list(table.users.values())[1:]:
            await user.start(payload)
        await ann.start()
        await table.settle()
        for command in ("/pace forum Europe/Moscow", "/option stone_backfire never", ROLES):
            await ann.send(command, chat=games)
        await table.settle()
        [signup] = sign_ups(games)  # still the one message, edited
        assert signup.edited
        assert "Signed up so far: Ann, Bob, Cid, Dot, Eve, Fay, Gus, and Hal (8 players)." \
            in signup.text
        assert "Pace: forum, time zone Europe/Moscow." in signup.text
        assert "Changed from the defaults: the Stone's backfire: never." in signup.text
        assert "The 7 roles to deal: Father, Lust, Envy, Pride" in signup.text
        assert not any("Setting changed" in m.text for m in games.messages())
        await ann.send("/status", chat=games)
        await table.settle()
        assert any("This group's settings, which its next games start with: language "
                   "English, pace forum, time zone Europe/Moscow." in m.text
                   for m in games.messages())

        await ann.send("/endgame", chat=games)
        await table.settle()
        await confirm(table, ann)
        await bob.send("/newgame alchemists", chat=games)  # another host, the same topic
        await table.settle()
        second = sign_ups(games)[-1]
        assert "Bob opens a game" in second.text
        assert "Pace: forum, time zone Europe/Moscow." in second.text
        assert "The 7 roles to deal: Father, Lust" in second.text
        row = await GameRecord.all().order_by("-id").first()
        assert row.settings["options"] == {"stone_backfire": "never"}

        await ann.send("/newgame alchemists", chat=other)  # Ann is free: a game elsewhere
        await table.settle()
        [elsewhere] = sign_ups(other)
        assert "Pace: quick, time zone Europe/Berlin." in elsewhere.text
        assert "Roles: the rules' deal for 1 player." in elsewhere.text
        assert "Changed from the defaults" not in elsewhere.text
    finally:
        await table.stop()
