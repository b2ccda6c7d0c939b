"""A host's first hour on Telegram (issue 32), through the real python-telegram-bot stack
against the fake Bot API: a host who never started the bot is answered in the group, with a
mention and the link that opens his private chat, and asked to open it when he opens a game;
a newcomer's /start is a welcome; the group's /help comes in parts; the bot added to a group
greets it with the rights it misses; a command in the wrong chat is told where it works."""

from __future__ import annotations

from .harness import open_table, start_payload

TOO_FEW = "Not enough players yet: 1 joined, 6 needed."
ANSWERED_HERE = "Ann, I cannot write to you privately yet, so here is my answer. "
PRIVATE_ONLY = "works only in your private chat with me: send it to me there, not in the group."


def mentions(message) -> list[int]:
    """Whom a message's text mentions by account."""
    return [e["user"]["id"] for e in message.get("entities", [])
            if e["type"] == "text_mention"]


async def test_a_host_who_never_started_the_bot_is_answered_in_the_group(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 3)
    try:
        host = table.host
        await host.send("/newgame changelings", chat=table.group)
        await table.settle()
        asked, signup = table.group_messages()[-2:]
        assert asked.text.startswith("Ann, you host this game: my answers to your commands")
        assert start_payload(asked) == "hello" and mentions(asked) == [host.id]
        assert signup.text.startswith("Ann opens a game of")  # the sign-up stays the last

        await host.send("/startgame", chat=table.group)  # too few: the refusal
        await table.settle()
        answer = table.group_messages()[-1]
        assert answer.text.startswith(ANSWERED_HERE) and TOO_FEW in answer.text
        assert start_payload(answer) == "hello" and mentions(answer) == [host.id]
        assert api.sent_to(host) == []  # nothing went privately: nothing arrives late

        await host.start("hello")  # the link: his private chat opens
        await table.settle()
        told = [m.text for m in api.sent_to(host)]
        assert len(told) == 1 and TOO_FEW not in told[0], told  # the help, not the refusal
        assert "You host a game" in told[0]

        shown = len(table.group_messages())
        await host.send("/startgame", chat=table.group)  # reachable now: answered privately
        await table.settle()
        assert len(table.group_messages()) == shown
        assert api.sent_to(host)[-1].text == TOO_FEW
        assert api.unknown_methods == [] and api.internal_errors == []
    finally:
        await table.stop()


async def test_a_newcomer_is_welcomed_and_told_where_commands_work(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 4,
                             languages={"Dot": "de"})
    try:
        ann, bob, cid, dot = table.users.values()
        await ann.start()
        await bob.start()
        await table.settle()
        welcome = api.sent_to(bob)[-1].text
        assert welcome.startswith("Hello! I am Nightfall, a game master")
        assert "make me an admin there with the rights to delete messages" in welcome
        assert "Send me your night actions here" in welcome
        await dot.start()  # Telegram's language_code, without any setting of his own
        await table.settle()
        assert api.sent_to(dot)[-1].text.startswith("Hallo! Ich bin eine Spielleitung")

        await bob.send("/newgame")
        await bob.send("/vote Ann")
        await table.settle()
        assert [m.text for m in api.sent_to(bob)[-2:]] == [
            "Games are opened in a group: add me to your group and write /newgame there.",
            "/vote works in the game's group: write it there."]

        await ann.send("/newgame changelings", chat=table.group)
        await bob.send("/join", chat=table.group)
        await table.settle()
        # a night action or /myrole in the group: the same answer whoever sends it, a
        # player or not
        await bob.send("/abduct Ann", chat=table.group)
        await ann.send("/abduct Bob", chat=table.group)
        await table.settle()
        assert api.sent_to(bob)[-1].text == api.sent_to(ann)[-1].text == \
            f"/abduct {PRIVATE_ONLY}"
        await cid.send("/myrole", chat=table.group)  # never started: said in the group
        await table.settle()
        answer = table.group_messages()[-1]
        assert answer.text.startswith("Cid, I cannot write to you privately yet")
        assert answer.text.endswith(f"/myrole {PRIVATE_ONLY}")
        assert start_payload(answer) == "hello" and mentions(answer) == [cid.id]
        assert "know the command" not in " ".join(m.text for m in table.group_messages())
    finally:
        await table.stop()


async def test_the_group_help_comes_in_parts(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 2)
    try:
        ann = table.host
        await ann.send("/help", chat=table.group)
        await table.settle()
        overview = table.group_messages()[-1]
        assert overview.text.startswith("Commands in the group, in four parts")
        assert len(overview.text) < 300
        links = [start_payload(overview, label) for label in
                 ("1 Playing", "2 Hosting", "3 Settings", "4 Host powers")]
        assert links == ["help-1", "help-2", "help-3", "help-4"]
        await ann.start("help-2")  # the button: the part comes privately
        await table.settle()
        assert api.sent_to(ann)[-1].text.startswith("2 — Hosting: /newgame [ruleset]")
        await ann.send("/help 4", chat=table.group)
        await ann.send("/help 9", chat=table.group)
        await table.settle()
        assert table.group_messages()[-1].text.startswith("4 — Host powers during the game")
        assert api.sent_to(ann)[-1].text == "/help has four parts: write /help 1, 2, 3 or 4."
    finally:
        await table.stop()


async def test_the_bot_added_to_a_group_greets_it_with_the_rights_it_misses(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 2, privacy=True)
    try:
        members = list(table.users.values())
        plain = api.group("Tea Room", members=members, announce=True)  # a member, privacy on
        full = api.group("Admins' Den", members=members, supergroup=True, bot_admin=True,
                         announce=True)
        await table.settle()
        [greeting] = [m.text for m in api.messages(plain)]
        assert greeting.startswith("Hello, I am Nightfall, your game master.")
        for missing in ("I cannot mute the players who are out of the game",
                        "right to ban users", "I cannot delete my own messages",
                        "right to delete messages", "I see only the commands written here",
                        "@BotFather (/setprivacy, then Disable)"):
            assert missing in greeting, missing
        [greeting] = [m.text for m in api.messages(full)]
        assert greeting.endswith("I have every right I need here.")
    finally:
        await table.stop()
