"""The Telegram adapter's behaviour around one game: distrust of buttons, people the bot may
not write to, the dead going silent, host rights, command menus, languages and the token."""

from __future__ import annotations

import logging

import aiohttp

from core.storage.models import LogEntry
from tests.role_cards import is_role_card

from .harness import confirm, living, open_table, sign_up, start_payload


async def ballot_of(table):
    return next(m for m in reversed(table.group_messages()) if m.button(text="Bob"))


async def test_buttons_are_never_trusted(api, db_url):
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        ballot = await ballot_of(table)
        ann, bob = table.users["Ann"], table.users["Bob"]
        before = await LogEntry.all().count()

        forged = await ann.press_forged(table.group, ballot.message_id, "x" * 64)
        stranger = api.user("Zed")
        table.group.add_member(stranger, announce=False)
        foreign = await stranger.press(ballot, ballot.button(text="Bob")["callback_data"])
        await table.settle()
        assert api.answer_for(forged) == "This button is not valid."
        assert api.answer_for(foreign) == "You are not playing in this game."
        assert await LogEntry.all().count() == before  # nothing changed

        pressed = await bob.press(ballot, ballot.button(text="Cid")["callback_data"])
        await table.settle()
        assert api.answer_for(pressed) == "Your choice was noted."
        assert "Cid (1)" in api.messages(table.group)[-1].text or any(
            "Cid (1)" in m.text for m in api.messages(table.group))

        # the election ends; its ballot's buttons are stale from then on
        await table.let_time_pass(400)
        stale = await ann.press_forged(table.group, ballot.message_id,
                                       ballot.button(text="Dot")["callback_data"])
        await table.settle()
        assert api.answer_for(stale) == \
            "This button is from an earlier phase and no longer works."

        # a private keyboard's button, pressed by somebody else (a modified client)
        keyboards = {name: [m for m in api.sent_to(u) if m.buttons]
                     for name, u in table.users.items()}
        owner, offered = next((n, k[-1]) for n, k in keyboards.items() if k)
        other = next(u for n, u in table.users.items() if n != owner)
        theirs = offered.buttons[0][0]["callback_data"]
        taken = await other.press_forged(other, offered.message_id, theirs)
        await table.settle()
        assert api.answer_for(taken) in ("This button is not for you.",
                                         "This button is not valid.")
    finally:
        await table.stop()


async def test_a_private_keyboard_loses_its_buttons_when_its_phase_closes(api, db_url):
    """Night choices are buttons in the private chat until the phase closes; then each such
    message is edited into its last version, without buttons, the last one saying so."""
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        await table.let_time_pass(400)  # the election closes: the night's dusk begins
        offered = {(name, m.message_id) for name, user in table.users.items()
                   for m in api.sent_to(user) if m.buttons}
        assert offered
        await table.let_time_pass(100)  # the dusk closes
        now = {(name, m.message_id): m for name, user in table.users.items()
               for m in api.sent_to(user)}
        for key in offered:
            assert now[key].buttons == [], key
        # the last keyboard of each player says so (once, not once per keyboard)
        last = {name: max(m for n, m in offered if n == name) for name, _ in offered}
        for name, message_id in last.items():
            assert now[name, message_id].text.endswith("This choice is closed."), name
    finally:
        await table.stop()


async def test_text_votes_count_and_edited_messages_do_not(api, db_url):
    """The forum rule: a vote in an edited message does not count. Bob's /vote Cid edited
    into /vote Dot withdraws his vote for Cid and casts none for Dot; he is told so, every
    time, and an edit of a vote he has since changed changes nothing (he is told that too)."""
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        bob, eve = table.users["Bob"], table.users["Eve"]
        message = await bob.send("/vote Cid", chat=table.group)
        await eve.send("/vote Cid", chat=table.group)
        await table.settle()
        assert "Cid (2)" in (await ballot_of(table)).text
        await bob.edit(message, "/vote Dot")
        await table.settle()
        tally = (await ballot_of(table)).text.split("Votes so far")[-1]
        assert "Cid (1)" in tally and "Dot" not in tally
        assert api.sent_to(bob)[-1].text == (
            "You edited the message with your vote for Cid. A vote in an edited message does "
            "not count, so your vote is withdrawn and the edit counts for nothing either. To "
            "vote, send /vote again as a new message or press a button on the ballot.")
        pids = await living(table)
        game = await table.runtime.service.games.load(await table.game_row())
        assert game.state.votes == {pids["Eve"]: pids["Cid"]}

        first = await eve.send("/vote Dot", chat=table.group)  # then she changes her mind
        await eve.send("/vote Fay", chat=table.group)
        await table.settle()
        await eve.edit(first, "/vote Gus")  # no longer her vote: nothing changes
        await table.settle()
        game = await table.runtime.service.games.load(await table.game_row())
        assert game.state.votes == {pids["Eve"]: pids["Fay"]}
        assert api.sent_to(eve)[-1].text.startswith("Edits do not count")
    finally:
        await table.stop()


async def test_a_player_the_bot_cannot_write_to_is_told_once_in_the_group(api, db_url):
    table = await open_table(api, db_url, 8)
    try:
        host, gus = table.users["Ann"], table.users["Gus"]
        await host.start()
        await host.send("/newgame changelings", chat=table.group)
        await table.settle()
        payload = start_payload(table.group_messages()[-1], "Join")
        for name, user in table.users.items():
            if name not in ("Ann", "Gus"):
                await user.start(payload)
        await gus.send("/join", chat=table.group)  # joins in the group, never starts the bot
        await host.send("/startgame", chat=table.group)
        await table.settle()
        notes = [m for m in table.group_messages() if m.text.startswith("Gus, I cannot write")]
        assert len(notes) == 1  # once, although his role card and more could not be sent
        assert not any(is_role_card(m.text) for m in api.sent_to(gus))

        await gus.start(start_payload(notes[0], "Open my private chat"))
        await table.settle()
        assert any(is_role_card(m.text) for m in api.sent_to(gus))

        gus.block()  # later he blocks the bot: the group hears of it again, once
        await table.let_time_pass(400)
        assert "Gus" in await living(table) and "Gus" in "".join(
            m.text for m in table.group_messages())
    finally:
        await table.stop()


async def test_the_dead_are_muted_until_the_end_and_invited_to_the_spectators(api, db_url):
    table = await open_table(api, db_url, 8)
    try:
        ann, bob = table.users["Ann"], table.users["Bob"]
        await ann.send("/spectators https://t.me/+ghosts", chat=table.group)
        await sign_up(table, "changelings", "/option random_lovers false")
        assert table.group.can_send(bob)
        await ann.send("/modkill Bob", chat=table.group)
        await table.settle()
        assert "Bob" not in await living(table)
        assert not table.group.can_send(bob)  # the dead go silent
        assert any("https://t.me/+ghosts" in m.text for m in api.sent_to(bob))
        await ann.send("/endgame", chat=table.group)
        await table.settle()
        assert not table.group.can_send(bob)  # nothing happens before the host confirms
        await confirm(table, ann)
        assert table.group.can_send(bob)  # the game is over: everybody may talk again
    finally:
        await table.stop()


async def test_host_powers_belong_to_the_host_and_the_group_admins(api, db_url):
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        cid, dot = table.users["Cid"], table.users["Dot"]
        await cid.send("/pause", chat=table.group)
        await table.settle()
        assert api.sent_to(cid)[-1].text == "Only the host can do that."
        table.group.make_admin(dot)
        await dot.send("/pause", chat=table.group)
        await table.settle()
        row = await table.game_row()
        game = await table.runtime.service.games.load(row)
        assert game.state.paused
        await dot.send("/resume", chat=table.group, anonymous=True)  # as the group itself
        await table.settle()
        game = await table.runtime.service.games.load(await table.game_row())
        assert not game.state.paused
    finally:
        await table.stop()


async def test_command_menus_in_every_language(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 1)
    try:
        groups = {"type": "all_group_chats"}
        privates = {"type": "all_private_chats"}
        english = {c["command"]: c["description"] for c in api.commands(groups)}
        german = {c["command"]: c["description"] for c in api.commands(groups, "de")}
        russian = {c["command"]: c["description"] for c in api.commands(groups, "ru")}
        assert set(english) == set(german) == set(russian) >= {"newgame", "join", "vote"}
        assert english["join"] == "Join the game" and german["join"] != english["join"] \
            and russian["join"] != english["join"]
        assert {c["command"] for c in api.commands(privates, "ru")} >= {"help", "pass"}
    finally:
        await table.stop()


async def test_the_group_and_each_player_get_their_own_language(api, tmp_path):
    languages = {"Bob": "ru", "Cid": "de"}
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 8,
                             languages=languages)
    try:
        await table.host.send("/language de", chat=table.group)
        await sign_up(table, "changelings", "/option random_lovers false")
        group_text = " ".join(m.text for m in table.group_messages())
        assert "Anmeldung" in group_text or "Rolle" in group_text or "Spiel" in group_text
        bob_card = next(m.text for m in api.sent_to(table.users["Bob"])
                        if "оль" in m.text)  # «Твоя роль», «роль»
        assert bob_card
        cid_card = next(m.text for m in api.sent_to(table.users["Cid"]) if "Rolle" in m.text)
        assert cid_card
    finally:
        await table.stop()


async def test_the_token_never_reaches_the_logs(api, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 8)
    try:
        await sign_up(table, "alchemists")
    finally:
        await table.stop()
    secret = api.token.split(":")[1]
    assert caplog.records
    assert not [r for r in caplog.records if secret in r.getMessage()]


async def test_webhook_mode_receives_updates_with_the_secret_only(api, tmp_path):
    from adapters.telegram.adapter import TelegramAdapter, TelegramSettings
    from core.service.runtime import Runtime
    from tests.bot_run import free_port

    port = free_port()
    adapter = TelegramAdapter(TelegramSettings(
        token=api.token, base_url=api.base_url, webhook_url=f"http://127.0.0.1:{port}/telegram",
        webhook_port=port, webhook_secret="s3cret-hook"))
    runtime = Runtime(f"sqlite://{tmp_path / 'tg.sqlite3'}", [adapter], tick=0.05)
    await runtime.start()
    try:
        assert api.webhook_url == f"http://127.0.0.1:{port}/telegram"
        ann = api.user("Ann")
        group = api.group("Hooked", members=[ann], supergroup=True)
        update = {"update_id": 900, "message": {
            "message_id": 1, "date": 1_700_000_000, "text": "/help",
            "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
            "chat": {"id": group.id, "type": "supergroup", "title": "Hooked"},
            "from": {"id": ann.id, "is_bot": False, "first_name": "Ann"}}}
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{port}/telegram"
            async with http.post(url, json=update) as refused:
                assert refused.status == 403  # no secret: not Telegram
            headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret-hook"}
            async with http.post(url, json=update, headers=headers) as accepted:
                assert accepted.status == 200
        await api.wait_for(lambda: api.messages(group), timeout=10)
        assert api.messages(group)[0].text.startswith("Commands in the group")
    finally:
        await runtime.stop()
