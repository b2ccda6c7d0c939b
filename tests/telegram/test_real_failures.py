"""How Telegram fails a bot, one test per failure: a group that moved before the bot heard
of it, a forum topic closed under a running game, General closed, a linked channel's
automatic forwards, a send Telegram answers too late, long texts that fail halfway."""

from __future__ import annotations

import asyncio
import contextlib

from core.storage.models import GameRecord, Identity, Seat

from .harness import Table, confirm, open_table, sign_up, start_payload


async def game_of(table: Table):
    row = await table.game_row()
    return row, await table.runtime.service.games.load(row)


async def test_a_group_that_moved_before_the_bot_heard_of_it(api, tmp_path):
    """(2) The upgrade's service messages have not reached the bot when it next writes to
    the old id: Telegram answers with the new id (ChatMigrated), the game moves there, and
    the message that failed is posted in the new chat."""
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 8, privacy=True,
                             bot_admin=False, supergroup=False)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        old = table.group
        posted = len(api.history(old))  # the sign-up, which names the windows' timers
        new = old.upgrade(by=table.host)
        # as if Telegram had not yet delivered the two service messages of the upgrade
        api._pending = [u for u in api._pending if "migrate" not in str(u)]
        await table.users["Dot"].send("/status", chat=new)  # the bot does not know the chat
        await table.settle()
        await table.let_time_pass(400)  # the election closes: its result goes to the old id
        assert any("upgraded to a supergroup" in e.description for e in api.errors)
        row = await table.game_row()
        assert (await row.chat).ref == str(new.id)
        texts = [m.text for m in api.messages(new)]
        assert any("mayor" in t.lower() for t in texts), texts
        assert not [m for m in api.history(old)[posted:] if m.get("event") == "sent"
                    and "mayor" in m.text.lower() and "elects" not in m.text]
        await table.host.send("/status", chat=new)
        await table.settle()
        assert any("Phase" in m.text for m in api.messages(new)[-3:])
    finally:
        await table.runtime.stop()


async def test_a_closed_topic_pauses_its_game_and_reopened_it_goes_on(api, tmp_path):
    """(3) A forum topic's game talks in its topic; the topic closed, the game pauses and the
    host is told privately; reopened and /resume, it goes on — in the same topic."""
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 8, supergroup=True,
                             forum=True, bot_admin=False)
    topic = table.group.create_topic("Game thread", by=table.host)
    forum, table.group = table.group, topic
    try:
        forum.close_general()  # General closed: no matter, the game lives in its topic
        await sign_up(table, "changelings", "/option random_lovers false")
        assert topic.messages() and not forum.general.messages()
        topic.close(by=table.host)
        await table.settle()
        row, game = await game_of(table)
        assert game.state.paused and row.settings["lost"]["reason"] == "topic_closed"
        host_texts = " ".join(m.text for m in api.sent_to(table.host))
        assert "topic of your game in Ponyville Game Night was closed" in host_texts
        topic.reopen(by=table.host)
        await table.settle()
        assert "still paused" in api.sent_to(table.host)[-1].text
        await table.host.send("/resume", chat=topic)
        await table.settle()
        _, game = await game_of(table)
        assert not game.state.paused
        assert any("resumed" in m.text for m in topic.messages())
    finally:
        await table.runtime.stop()


async def test_a_game_in_a_closed_general_topic_pauses_when_the_bot_cannot_post(api, tmp_path):
    """(3) General works like any topic; closed, the bot's next post answers TOPIC_CLOSED:
    the game pauses (not the games of other topics) and the host is told."""
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 8, supergroup=True,
                             forum=True, bot_admin=False)
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        table.group.close_general()
        # whether Telegram tells bots of a closed General is not documented: learn it only
        # from the refused post
        api._pending = [u for u in api._pending if "forum_topic_closed" not in str(u)]
        await table.settle()
        await table.let_time_pass(400)  # the result cannot be posted
        assert any(e.description == "Bad Request: TOPIC_CLOSED" for e in api.errors)
        row, game = await game_of(table)
        assert row.settings.get("lost", {}).get("reason") == "topic_closed"
        assert game.state.paused
    finally:
        await table.runtime.stop()


async def test_a_linked_channels_posts_are_nobody(api, tmp_path):
    """(11) A linked channel's automatic forwards come from user 777000 "Telegram": once
    they joined games as a player of that name."""
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 6)
    try:
        channel = api.channel("Ponyville News")
        table.group.link_channel(channel)
        await table.host.send("/newgame changelings", chat=table.group)
        await table.settle()
        channel.post("/join")
        channel.post("Tonight: a game in the group!")
        await table.settle()
        row = await table.game_row()
        names = [s.identity.name for s in await Seat.filter(game_id=row.id)
                 .prefetch_related("identity")]
        assert names == ["Ann"]
        assert not await Identity.filter(name="Telegram").exists()
        assert api.pending_updates == 0
        assert (await GameRecord.get(id=row.id)).status == "lobby"
    finally:
        await table.runtime.stop()


async def open_slow_table(api, tmp_path, count: int) -> Table:
    """A table whose bot waits only one second for Telegram's answers."""
    from adapters.telegram.adapter import TelegramAdapter, TelegramSettings
    from core.service import RateLimits
    from core.service.runtime import Runtime

    from .harness import NAMES, OffsetClock

    users = {name: api.user(name) for name in NAMES[:count]}
    group = api.group("Slow Network", members=list(users.values()), supergroup=True,
                      bot_admin=True)
    clock = OffsetClock()
    adapter = TelegramAdapter(TelegramSettings(
        token=api.token, base_url=api.base_url, poll_timeout=1, request_timeout=1.0,
        limits=RateLimits()))
    runtime = Runtime(f"sqlite://{tmp_path / 'slow.sqlite3'}", [adapter], clock=clock,
                      seed=5, tick=0.05)
    await runtime.start()
    return Table(api, runtime, clock, group, users)


async def test_a_send_that_timed_out_is_not_posted_twice(api, tmp_path):
    """(7) TimedOut does not mean "not sent": the message arrived, the answer did not. It
    is not posted a second time; an edit that timed out is simply done again."""
    table = await open_slow_table(api, tmp_path, 8)
    try:
        await table.host.send("/newgame changelings", chat=table.group)
        await table.settle()
        api.delay_next("sendMessage", 2.5)
        await table.host.send("/rules", chat=table.group)
        await table.settle()
        await asyncio.sleep(2)
        await table.settle()
        rules = [m for m in api.history(table.group) if m.get("event") == "sent"
                 and m.text.startswith(api.messages(table.group)[-1].text[:40])]
        assert len(rules) == 1
        api.delay_next("editMessageText", 2.5)
        joiner = table.users["Bob"]
        await joiner.send("/join", chat=table.group)
        await table.settle()
        await asyncio.sleep(3)
        await table.settle()
        signup = [m for m in api.messages(table.group) if "opens a game" in m.text]
        assert len(signup) == 1 and "Bob" in signup[0].text
    finally:
        await table.runtime.stop()


@contextlib.asynccontextmanager
async def sender_in_a_group(api, tmp_path):
    """The adapter's Sender with its own database and a PTB bot against the fake: (sender,
    group, the group's chat ref)."""
    from adapters.telegram.sending import Sender
    from core.service import ChatRef
    from core.service.rows.adapter_tables import TableStore
    from core.storage.db import close_db, open_db

    await open_db(f"sqlite://{tmp_path / 'parts.sqlite3'}")
    group = api.group("Long Texts", members=[api.user("Ann")], supergroup=True)
    app = api.builder().build()
    await app.initialize()
    try:
        yield Sender(app.bot, TableStore("telegram")), group, ChatRef(str(group.id))
    finally:
        await app.shutdown()
        await close_db()


async def test_a_long_text_is_one_unit_when_its_second_part_fails(api, tmp_path):
    """(8) A text over 4096 characters goes in two parts; Telegram refuses the second (a
    flood limit): the retry sends the second part, never the first again."""
    from core.service import Post, TransientError

    from .fake_botapi import FloodRules

    async with sender_in_a_group(api, tmp_path) as (sender, group, ref):
        text = "\n\n".join(f"Paragraph {i}: " + "y" * 900 for i in range(6))
        message = Post(7, ref, text)
        api.flood = FloodRules(per_chat_per_second=1.0, per_group_per_minute=None,
                               overall_per_second=None, burst=1)
        try:
            await sender.send(message, ref, None, private=False)
            raise AssertionError("the second part should have hit the flood limit")
        except TransientError as err:
            assert err.retry_after
        assert len(api.messages(group)) == 1
        await asyncio.sleep(1.1)
        await sender.send(message, ref, None, private=False)  # the outbox's retry
        sent = [m.text for m in api.history(group) if m.get("event") == "sent"]
        assert len(sent) == 2 and sent[0].startswith("Paragraph 0")
        assert sent[1].startswith("Paragraph") and not sent[1].startswith("Paragraph 0")


async def test_an_edit_of_a_long_message_edits_every_part(api, tmp_path):
    """(8) A message edited in place that is longer than Telegram's limit: every part is
    edited, a part is added when it grows and deleted when it shrinks."""
    from core.service import Post

    async with sender_in_a_group(api, tmp_path) as (sender, group, ref):
        async def version(number: int, paragraphs: int) -> None:
            text = "\n\n".join(f"Version {number}, paragraph {i}: " + "x" * 900
                               for i in range(paragraphs))
            await sender.send(Post(number, ref, text, replace="tally-1"), ref,
                              None, private=False)

        await version(1, 6)  # about 5500 characters: two parts
        first = [m.message_id for m in api.messages(group)]
        assert len(first) == 2
        await version(2, 6)
        assert [m.message_id for m in api.messages(group)] == first
        assert all(m.text.startswith("Version 2") and m.edited for m in api.messages(group))
        await version(3, 10)  # three parts: one more is posted
        assert len(api.messages(group)) == 3
        await version(4, 1)  # one part: the others are deleted
        assert [m.text[:9] for m in api.messages(group)] == ["Version 4"]


async def test_a_deleted_topic_pauses_its_game_and_the_host_ends_it_privately(api, tmp_path):
    """(3) The topic is gone with its messages: the next post answers "message thread not
    found", the game pauses, and the host, told privately, ends it from his private chat."""
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 8, supergroup=True,
                             forum=True, bot_admin=True)
    topic = table.group.create_topic("Game thread", by=table.host)
    table.group = topic
    try:
        await sign_up(table, "changelings", "/option random_lovers false")
        topic.delete()
        await table.let_time_pass(400)  # the election's result has nowhere to go
        row, game = await game_of(table)
        assert game.state.paused and row.settings["lost"]["reason"] == "topic_deleted"
        assert "was deleted" in " ".join(m.text for m in api.sent_to(table.host))
        await table.host.send("/endgame")
        await table.settle()
        assert (await GameRecord.get(id=row.id)).status == "running"  # asked first
        await confirm(table, table.host)
        assert (await GameRecord.get(id=row.id)).status == "cancelled"
        assert "The game is ended." in [m.text for m in api.sent_to(table.host)]
    finally:
        await table.runtime.stop()


async def test_a_sign_up_whose_first_post_timed_out_shows_twice_and_both_copies_answer(
        api, tmp_path):
    """(8) The sign-up is edited in place. Its first post timed out (it arrived, the answer
    did not): the bot cannot know whether it is there nor edit it, and a game nobody can
    join from the group would be dead, so it is posted again — the one exception to "never
    twice" (docs/telegram.md). Both copies' buttons work: the orphan's Join joins (the live
    copy lists the player); once the game runs it answers that sign-up is closed, and once the
    game is over it says so — never silence, never "already started" for a game long gone."""
    table = await open_slow_table(api, tmp_path, 8)
    try:
        api.delay_next("sendMessage", 2.5)
        await table.host.send("/newgame changelings", chat=table.group)
        await table.settle()
        await asyncio.sleep(2)
        await table.settle()
        copies = [m for m in api.messages(table.group) if "opens a game" in m.text]
        assert len(copies) == 2  # the exception, as docs/telegram.md states it
        orphan, live = copies
        join = start_payload(orphan)
        assert start_payload(live) == join  # the same buttons under both
        await table.host.start()
        for user in list(table.users.values())[1:7]:
            await user.start(join)
        await table.settle()
        copies = [m for m in api.messages(table.group) if "opens a game" in m.text]
        assert copies[0].text == orphan.text  # never edited again
        assert "Bob" in copies[1].text and "Gus" in copies[1].text
        await table.host.send("/startgame", chat=table.group)
        await table.settle()
        late = table.users["Hal"]
        await late.start(join)
        await table.settle()
        assert api.sent_to(late)[-1].text == "Sign-up is closed: the game has already started."
        await table.host.send("/endgame", chat=table.group)
        await table.settle()
        await confirm(table, table.host)
        await late.start(join)
        await table.settle()
        assert api.sent_to(late)[-1].text == (
            "This sign-up belongs to a game that is over. To play, join the game open in the "
            "group now, or ask to be told of the next one with /nextgame.")
    finally:
        await table.runtime.stop()
