"""Telegram as it really is, one test per way a real group broke the bot: free text that
starts with "@", a bot removed from its group, anonymous admins, muting without rights, edits
Telegram refuses, updates that fail, players who share a name, a start that Telegram makes
hard. Each is played through the real PTB stack against the fake Bot API."""

from __future__ import annotations

import asyncio
import logging

from core.storage.models import GameRecord, Identity, LogEntry, Seat
from tests.role_cards import has_role_card

from .harness import confirm, living, open_table, sign_up


async def game_of(table):
    row = await table.game_row()
    return row, await table.runtime.service.games.load(row)


def private_texts(api, user) -> str:
    return "\n".join(m.text for m in api.sent_to(user))


async def test_a_group_message_that_starts_with_an_at_sign_does_not_deafen_the_bot(api, db_url):
    """(1) "@bob are you coming tonight?" once raised IndexError and was fetched forever."""
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        bob, cid = table.users["Bob"], table.users["Cid"]
        for text in ("@bob are you coming tonight?", "@", "@ ", "/", "/ vote", "/@bot"):
            await bob.send(text, chat=table.group)
        await cid.send("/vote Bob", chat=table.group)
        await table.settle()
        assert api.pending_updates == 0  # every update was confirmed
        _, game = await game_of(table)
        players = await living(table)
        assert game.state.votes.get(players["Cid"]) == players["Bob"]
    finally:
        await table.stop()


async def test_the_bot_removed_from_the_group_pauses_the_game_and_tells_the_host(api, db_url):
    """(4) Removed: the game pauses (no deadline fires, no prompt goes out), the host is told
    privately how to go on; re-added, the waiting messages follow and /resume goes on; a
    group that stays unreachable cancels the game and frees its players."""
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        ann = table.host
        table.group.remove_bot()
        await table.settle()
        row, game = await game_of(table)
        assert game.state.paused and row.settings["lost"]["reason"] == "removed"
        assert "I was removed from Ponyville Game Night" in private_texts(api, ann)
        window = row.window
        await table.let_time_pass(3600)  # the election's deadline passes: nothing closes
        row, game = await game_of(table)
        assert row.window == window and game.state.paused

        table.group.readd_bot()
        await table.settle()
        assert "I can write in Ponyville Game Night again" in private_texts(api, ann)
        assert any("could not write in this chat" in m.text for m in table.group_messages())
        await ann.send("/resume", chat=table.group)
        await table.settle()
        row, game = await game_of(table)
        assert not game.state.paused and "lost" not in row.settings

        table.group.kick_bot()  # gone for good this time
        await table.settle()
        await table.let_time_pass(25 * 3600)
        row = await GameRecord.get(id=row.id)
        assert row.status == "cancelled"
        bob = table.users["Bob"]
        assert "cancelled" in private_texts(api, bob)
        other = api.group("Elsewhere", members=[bob], supergroup=True)
        await bob.send("/newgame alchemists", chat=other)  # he is free to play elsewhere
        await table.settle()
        assert await GameRecord.filter(status="lobby").exists()
    finally:
        await table.stop()


async def test_an_anonymous_admin_hosts_but_is_never_seated(api, db_url):
    """(5) An admin posting as the group: host rights, never a player, told why in the
    group; a reply to him does not break delivery."""
    table = await open_table(api, db_url, 8)
    try:
        dot = table.users["Dot"]
        table.group.make_admin(dot)
        await dot.send("/newgame changelings", chat=table.group, anonymous=True)
        await table.settle()
        assert any("posting as the group" in m.text for m in table.group_messages())
        row = await table.game_row()
        host = await Identity.get(id=row.host_id)
        assert host.anonymous and not await Seat.filter(game_id=row.id, active=True).exists()
        await dot.send("/vote Ann", chat=table.group, anonymous=True)  # answered in the group
        await dot.send("/join", chat=table.group, anonymous=True)
        await table.settle()
        texts = [m.text for m in table.group_messages()]
        assert any("There is" in t or "not started" in t for t in texts)
        assert sum("to play, write as yourself" in t for t in texts) >= 1
        assert not await Seat.filter(game_id=row.id, active=True).exists()
    finally:
        await table.stop()


async def test_unmuting_waits_for_the_rights_and_the_host_is_told_whom(api, db_url):
    """(6) Demoted before the end, the bot cannot unmute: the host hears whom; when the
    right comes back every muted player speaks again, with the group's own permissions."""
    table = await open_table(api, db_url, 8)
    try:
        ann, bob = table.users["Ann"], table.users["Bob"]
        await sign_up(table, "changelings", "/option random_lovers false")
        await ann.send("/modkill Bob", chat=table.group)
        await table.settle()
        assert not table.group.can_send(bob)
        table.group.set_bot_admin(False)
        await table.settle()
        await ann.send("/endgame", chat=table.group)
        await table.settle()
        await confirm(table, ann)
        assert not table.group.can_send(bob)
        assert "I could not let Bob speak again" in private_texts(api, ann)
        table.group.set_bot_admin(True)
        await table.settle()
        assert table.group.can_send(bob)
        unmute = api.calls_to("restrictChatMember")[-1]
        assert unmute.get("use_independent_chat_permissions") is True
    finally:
        await table.stop()


async def test_a_ballot_telegram_will_not_edit_is_posted_once_anew(api, db_url):
    """(9) "message can't be edited" once froze the ballot for the rest of the day."""
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        ballots = [m for m in table.group_messages() if m.button(text="Bob")]
        api.fail_next("editMessageText", 400, "Bad Request: message can't be edited")
        await table.users["Cid"].send("/vote Bob", chat=table.group)
        await table.settle()
        await table.users["Dot"].send("/vote Bob", chat=table.group)
        await table.settle()
        now = [m for m in table.group_messages() if m.button(text="Bob")]
        assert len(now) == len(ballots) == 1 and now[0].message_id != ballots[0].message_id
        assert "Bob (2)" in now[0].text  # the later vote edited the new ballot
    finally:
        await table.stop()


async def test_an_update_that_fails_is_skipped_and_one_in_an_outage_is_retried(api, db_url,
                                                                               caplog):
    """(1, 10) A failing update is logged with its id and confirmed; one that failed
    because the database was unreachable is fetched again and applied."""
    caplog.set_level(logging.ERROR)
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        service = table.runtime.service
        real = service.handle
        failures = [ValueError("a bug"), ConnectionError("database down")]

        async def flaky(incoming):
            if failures and incoming.text.startswith("/vote"):
                raise failures.pop(0)
            return await real(incoming)

        service.handle = flaky
        cid, dot = table.users["Cid"], table.users["Dot"]
        await cid.send("/vote Bob", chat=table.group)  # the bug: skipped
        await table.settle()
        await dot.send("/vote Bob", chat=table.group)  # the outage: applied on a retry
        await asyncio.sleep(1.5)
        await table.settle()
        players = await living(table)
        _, game = await game_of(table)
        assert players["Cid"] not in game.state.votes
        assert game.state.votes[players["Dot"]] == players["Bob"]
        assert api.pending_updates == 0
        assert any("could not be handled" in r.getMessage() for r in caplog.records)
    finally:
        await table.stop()


async def test_players_who_share_a_name_are_told_apart_and_named_by_username(api, db_url):
    """(11) Two "Ann"s get different buttons and names; /vote @username works."""
    table = await open_table(api, db_url, 7)
    try:
        twin = api.user("Ann", username="ann_the_second")
        table.group.add_member(twin, announce=False)
        table.users["Ann2"] = twin
        await sign_up(table, "changelings", "/option random_lovers false")
        ballot = next(m for m in reversed(table.group_messages()) if m.button(text="Bob"))
        labels = [b["text"] for row in ballot.buttons for b in row]
        assert "Ann (@ann_the_second)" in labels and "Ann (1)" in labels
        await table.users["Bob"].send("/vote @ann_the_second", chat=table.group)
        await table.users["Cid"].send("/vote Ann (1)", chat=table.group)
        await table.settle()
        tally = next(m for m in reversed(table.group_messages()) if m.button(text="Bob")).text
        assert "Ann (@ann_the_second) (1)" in tally and "Ann (1) (1)" in tally
    finally:
        await table.stop()


async def test_a_refused_command_menu_is_a_warning_not_a_failed_start(api, tmp_path, caplog):
    """(11) setMyCommands failing once aborted the start."""
    caplog.set_level(logging.WARNING)
    api.fail_next("setMyCommands", 400, "Bad Request: BOT_COMMAND_INVALID")
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 1)
    try:
        await table.host.send("/help", chat=table.group)
        await table.settle()
        assert table.group_messages()
        assert any("command menu" in r.getMessage() for r in caplog.records)
    finally:
        await table.stop()


async def test_stopping_does_not_wait_out_the_pollers_back_off(api, tmp_path):
    """(11) SIGTERM while the poller waited to retry a failed update once took up to a
    minute: the back-off is cut short by the stop."""
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 1)
    service = table.runtime.service

    async def database_down(incoming):
        raise ConnectionError("database down")

    service.handle = database_down
    await table.host.send("/help", chat=table.group)
    await asyncio.sleep(4)  # the update failed three times: the poller backs off 1, 2, 4 s
    loop = asyncio.get_running_loop()
    began = loop.time()
    await table.runtime.stop()
    assert loop.time() - began < 2


async def test_log_entries_do_not_grow_from_ignored_updates(api, db_url):
    """Edited messages and other updates the game ignores change nothing."""
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        before = await LogEntry.all().count()
        message = await table.users["Bob"].send("hello all", chat=table.group)
        await table.settle()
        after_chat = await LogEntry.all().count()  # chatter counts as activity: one entry
        await table.users["Bob"].edit(message, "hello everyone")
        await table.settle()
        assert await LogEntry.all().count() == after_chat <= before + 1
    finally:
        await table.stop()


async def test_a_webhook_update_is_acknowledged_only_once_it_was_applied(api, tmp_path):
    """(10) PTB's webhook answered 200 before handling: an update whose handling failed was
    lost. Ours answers 503 while the database is unreachable (Telegram delivers it again)
    and 200 once it was applied."""
    import aiohttp

    from adapters.telegram.adapter import TelegramAdapter, TelegramSettings
    from core.service.runtime import Runtime
    from tests.bot_run import free_port

    port = free_port()
    url = f"http://127.0.0.1:{port}/hook"
    adapter = TelegramAdapter(TelegramSettings(
        token=api.token, base_url=api.base_url, webhook_url=url, webhook_port=port))
    runtime = Runtime(f"sqlite://{tmp_path / 'tg.sqlite3'}", [adapter], tick=0.05)
    await runtime.start()
    try:
        ann = api.user("Ann")
        group = api.group("Hooked", members=[ann], supergroup=True)
        update = {"update_id": 901, "message": {
            "message_id": 1, "date": 1_700_000_000, "text": "/help",
            "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
            "chat": {"id": group.id, "type": "supergroup", "title": "Hooked"},
            "from": {"id": ann.id, "is_bot": False, "first_name": "Ann"}}}
        service = runtime.service
        real = service.handle
        outage = [ConnectionError("database down")]

        async def flaky(incoming):
            if outage:
                raise outage.pop()
            return await real(incoming)

        service.handle = flaky
        async with aiohttp.ClientSession() as http:
            async with http.post(url, json=update) as first:
                assert first.status == 503
            assert not api.messages(group)
            async with http.post(url, json=update) as again:
                assert again.status == 200
        await api.wait_for(lambda: api.messages(group), timeout=10)
        assert len(api.messages(group)) == 1
    finally:
        await runtime.stop()


async def test_a_player_reads_again_privately_what_he_was_told(api, db_url):
    """What did not arrive (a send that timed out is never repeated) can be read again:
    private /status repeats the role card and the newest private messages."""
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        bob = table.users["Bob"]
        await bob.send("/status")
        await table.settle()
        recap = api.sent_to(bob)[-1]
        assert recap.text.startswith("Your role and what I told you last")
        assert has_role_card(recap.text) and not recap.buttons
    finally:
        await table.stop()


async def test_replace_by_reply_reaches_the_newcomer(api, db_url):
    """/replace OLD as a reply to the newcomer's message: the seat, the role card and what
    the seat was told go to him (once it went to the old player, or nowhere)."""
    table = await open_table(api, db_url, 8)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        zoe = api.user("Zoe", username="zoe_b")
        table.group.add_member(zoe, announce=False)
        await zoe.start()
        hello = await zoe.send("I can take over for Gus", chat=table.group)
        await table.host.reply(hello, "/replace Gus")
        await table.settle()
        seat = await Seat.filter(pid=(await living(table)).get("Zoe", ""), active=True) \
            .prefetch_related("identity").first()
        assert seat is not None and seat.identity.ref == str(zoe.id)
        told = " ".join(m.text for m in api.sent_to(zoe))
        assert "You take over this seat" in told and has_role_card(told)
        assert not any("You take over" in m.text for m in api.sent_to(table.users["Gus"]))
    finally:
        await table.stop()
