"""The fake Bot API against the real python-telegram-bot stack.

These tests pin the behaviours the adapter's end-to-end tests rely on: that PTB's Application
can run against the fake unchanged (getMe, deleteWebhook, long polling, webhooks), and that the
fake answers like Telegram where the game could go wrong (403 for users who never started the
bot, limits, "message is not modified", flood control, member restrictions, privacy mode,
expired callback queries), with Telegram's defaults (privacy on, basic groups), request
validation against the Bot API table, injectable failures, forums, upgrades and channels."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    ChatMemberRestricted,
    ChatPermissions,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    NetworkError,
    RetryAfter,
    TimedOut,
)
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from tests.telegram.fake_botapi import (
    CHANNEL_BOT_ID,
    GROUP_ANONYMOUS_BOT_ID,
    TELEGRAM_USER_ID,
    Errors,
    FakeBotAPI,
    FloodRules,
    assert_no_violations,
    polling,
)

JOIN_KEYBOARD = InlineKeyboardMarkup(
    [
        [InlineKeyboardButton("Join", callback_data="join")],
        [InlineKeyboardButton("Rules", url="https://example.org/rules")],
    ]
)


def build_app(api: FakeBotAPI, seen: list[Update]) -> Application:
    """A small bot: /start offers a keyboard, "join" is answered and edits the message (without
    markup, so the keyboard goes), other buttons get an alert, group text is echoed as a reply.
    Every update is recorded in `seen` first."""
    app = api.builder().build()

    async def record(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        seen.append(update)

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        if update.effective_chat and update.effective_chat.type == "private":
            await update.effective_message.reply_text(
                "Welcome to Nightfall", reply_markup=JOIN_KEYBOARD
            )

    async def button(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        if query.data == "join":
            await query.answer("Joined!")
            await query.edit_message_text(f"{query.from_user.first_name} joined")
        else:
            await query.answer("Unknown button", show_alert=True)

    async def echo(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        assert message is not None and message.text is not None
        if message.chat.type != "private":
            await message.reply_text(f"echo: {message.text}")

    app.add_handler(TypeHandler(Update, record), group=-1)
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CallbackQueryHandler(button))
    group_text = filters.UpdateType.MESSAGE & filters.TEXT & ~filters.COMMAND
    app.add_handler(MessageHandler(group_text, echo))
    return app


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    async with FakeBotAPI() as server:
        yield server
        assert server.unknown_methods == []
        assert server.internal_errors == []
        assert_no_violations(server)


@pytest.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[tuple[Application, list[Update]]]:
    seen: list[Update] = []
    app = build_app(api, seen)
    async with polling(app):
        yield app, seen


async def test_startup_calls_and_private_start_with_keyboard(api, bot) -> None:
    app, seen = bot
    assert [name for name, _ in api.calls[:2]] == ["getMe", "deleteWebhook"]
    assert app.bot.username == "nightfall_test_bot"
    assert app.bot.can_read_all_group_messages is False  # a new bot has privacy mode on

    alice = api.user("Alice", username="alice")
    sent = await alice.start("g-42")
    [welcome] = await api.wait_for(lambda: api.sent_to(alice))

    assert seen[0].message.text == "/start g-42"
    assert seen[0].message.entities[0].type == "bot_command"
    assert sent.message_id == 1 and welcome.message_id == 2
    assert welcome.text == "Welcome to Nightfall"
    assert welcome.buttons == [
        [{"text": "Join", "callback_data": "join"}],
        [{"text": "Rules", "url": "https://example.org/rules"}],
    ]
    assert welcome.edited is False and welcome.from_bot is True


async def test_press_answers_and_edit_removes_keyboard(api, bot) -> None:
    alice = api.user("Alice")
    await alice.start()
    [welcome] = await api.wait_for(lambda: api.sent_to(alice))

    query = await alice.press(welcome, "join")
    await api.wait_for(lambda: api.sent_to(alice)[0].edited)

    assert api.answer_for(query) == "Joined!"
    assert api.unanswered_queries() == []
    [now] = api.sent_to(alice)
    assert now.text == "Alice joined"
    assert now.buttons == []  # edited without reply_markup: Telegram drops the keyboard
    assert [v.event for v in api.history(alice)] == ["sent", "edited"]
    assert api.history(alice)[0].text == "Welcome to Nightfall"

    # The button is gone now, so a real client cannot press it again.
    with pytest.raises(AssertionError, match="no button 'join'"):
        await alice.press(now, "join")
    # A second answer to the same query is refused like Telegram does.
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot[0].bot.answer_callback_query(query)


async def test_forged_press_reaches_the_bot(api, bot) -> None:
    _, seen = bot
    alice = api.user("Alice")
    await alice.start()
    [welcome] = await api.wait_for(lambda: api.sent_to(alice))
    with pytest.raises(AssertionError):
        await alice.press(welcome, "admin:kill")  # no such button

    query = await alice.press_forged(alice, welcome.message_id, "admin:kill")
    await api.wait_for(lambda: api.answered(query))
    assert api.answer(query)["show_alert"] is True
    assert seen[-1].callback_query.data == "admin:kill"


async def test_group_messages_have_per_chat_ids_and_replies(api, bot) -> None:
    api.privacy = False  # the bot reads all group messages
    alice, bob = api.user("Alice"), api.user("Bob")
    village = api.group("Village", members=[alice, bob], supergroup=True)
    castle = api.group("Castle", members=[bob])  # a basic group, as new groups are
    assert str(village.id).startswith("-100") and castle.id < 0

    first = await alice.send("good morning", chat=village)
    await bob.send("hello castle", chat=castle)
    await api.wait_for(lambda: api.messages(village) and api.messages(castle))
    await bob.send("bob here", chat=village)
    await api.wait_for(lambda: len(api.messages(village)) == 2)

    in_village = api.messages(village, include_users=True)
    assert [m.message_id for m in in_village] == [1, 2, 3, 4]
    assert [m.text for m in in_village] == [
        "good morning", "echo: good morning", "bob here", "echo: bob here"
    ]
    assert in_village[1].reply_to_message_id == first.message_id  # PTB quotes in groups
    assert in_village[1]["reply_to_message"]["text"] == "good morning"
    assert [m.message_id for m in api.messages(castle, include_users=True)] == [1, 2]
    assert api.messages(castle)[0]["chat"] == {"id": castle.id, "type": "group", "title": "Castle"}


async def test_forbidden_for_users_who_never_started_or_blocked(api, bot) -> None:
    app, _ = bot
    carol = api.user("Carol")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await app.bot.send_message(carol.id, "Your role: seer")

    await carol.start()
    await api.wait_for(lambda: api.sent_to(carol))
    carol.block()
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await app.bot.send_message(carol.id, "Your role: seer")
    with pytest.raises(BadRequest, match="Chat not found"):
        await app.bot.send_message(424242, "hello?")
    assert [e.error_code for e in api.errors] == [403, 403, 400]


async def test_edit_with_same_content_is_not_modified(api, bot) -> None:
    app, _ = bot
    alice = api.user("Alice")
    await alice.start()
    [welcome] = await api.wait_for(lambda: api.sent_to(alice))

    with pytest.raises(BadRequest, match="Message is not modified"):
        await app.bot.edit_message_text(
            "Welcome to Nightfall", alice.id, welcome.message_id, reply_markup=JOIN_KEYBOARD
        )
    # Same text but no keyboard is a change: the keyboard goes.
    await app.bot.edit_message_text("Welcome to Nightfall", alice.id, welcome.message_id)
    assert api.sent_to(alice)[0].buttons == []
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await app.bot.edit_message_text("x", alice.id, 999)
    await app.bot.delete_message(alice.id, welcome.message_id)
    assert api.sent_to(alice) == []
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await app.bot.delete_message(alice.id, welcome.message_id)


async def test_limits_on_callback_data_text_and_keyboard(api, bot) -> None:
    app, _ = bot
    alice = api.user("Alice")
    await alice.start()
    await api.wait_for(lambda: api.sent_to(alice))

    def keyboard(data: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup([[InlineKeyboardButton("Vote", callback_data=data)]])

    await app.bot.send_message(alice.id, "ok", reply_markup=keyboard("é" * 32))  # 64 bytes
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await app.bot.send_message(alice.id, "no", reply_markup=keyboard("x" * 65))
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await app.bot.send_message(alice.id, "no", reply_markup=keyboard("é" * 32 + "x"))

    await app.bot.send_message(alice.id, "a" * 4096)
    with pytest.raises(BadRequest, match="Message is too long"):
        await app.bot.send_message(alice.id, "a" * 4097)
    with pytest.raises(BadRequest, match="Message text is empty"):
        await app.bot.send_message(alice.id, "  \n ")

    wide = [[InlineKeyboardButton(str(i), callback_data=str(i)) for i in range(9)]]
    with pytest.raises(BadRequest, match="Reply markup is too long"):
        await app.bot.send_message(alice.id, "wide", reply_markup=InlineKeyboardMarkup(wide))
    text_only = InlineKeyboardMarkup([[InlineKeyboardButton("just text")]])
    with pytest.raises(BadRequest, match="text buttons are unallowed"):
        await app.bot.send_message(alice.id, "bad", reply_markup=text_only)

    numeric = await app.bot.send_message(alice.id, "123")  # form-encoded: must stay a string
    assert numeric.text == "123" and api.last(alice).text == "123"
    assert [m.text[:3] for m in api.sent_to(alice)] == ["Wel", "ok", "aaa", "123"]
    # each refused request was a violation too, named by where the problem is
    assert [v.split(": ")[0] for v in api.violations] == [
        "sendMessage.reply_markup.inline_keyboard[0][0].callback_data",
        "sendMessage.reply_markup.inline_keyboard[0][0].callback_data",
        "sendMessage.text", "sendMessage.text",
        "sendMessage.reply_markup.inline_keyboard",
        "sendMessage.reply_markup.inline_keyboard[0][0]",
    ]
    api.violations.clear()


async def test_parse_modes_are_checked_and_rendered(api, bot) -> None:
    app, _ = bot
    alice = api.user("Alice")
    await alice.start()
    await api.wait_for(lambda: api.sent_to(alice))

    sent = await app.bot.send_message(
        alice.id, "<b>Night 1</b>: Bob &lt;3 falls", parse_mode="HTML"
    )
    assert sent.text == "Night 1: Bob <3 falls"
    assert sent.entities[0].type == "bold" and sent.entities[0].length == 7
    assert api.last(alice).source_text == "<b>Night 1</b>: Bob &lt;3 falls"

    with pytest.raises(BadRequest, match='unsupported start tag "br"'):
        await app.bot.send_message(alice.id, "line<br>line", parse_mode="HTML")
    with pytest.raises(BadRequest, match="can't find end tag"):
        await app.bot.send_message(alice.id, "<b>open", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"character '\.' is reserved"):
        await app.bot.send_message(alice.id, "Day 1.", parse_mode="MarkdownV2")
    escaped = await app.bot.send_message(alice.id, "*Day 1\\.* _go_", parse_mode="MarkdownV2")
    assert escaped.text == "Day 1. go"
    assert [e.type for e in escaped.entities] == ["bold", "italic"]
    assert [v.split(":")[0] for v in api.violations] == ["sendMessage.text"] * 3
    api.violations.clear()


async def test_flood_control_raises_retry_after(api, bot) -> None:
    app, _ = bot
    api.flood = FloodRules(per_chat_per_second=1.0, per_group_per_minute=20,
                           overall_per_second=30, burst=2)
    alice = api.user("Alice")
    await alice.start()
    await api.wait_for(lambda: api.sent_to(alice))  # the welcome spent one unit

    await app.bot.send_message(alice.id, "second in a burst of two")
    with pytest.raises(RetryAfter) as raised:
        await app.bot.send_message(alice.id, "third is too many")
    assert raised.value.retry_after == 1
    assert api.flood_hits == 1
    assert api.errors[-1].description == "Too Many Requests: retry after 1"
    assert api.errors[-1].params["text"] == "third is too many"
    # Edits spend the same budget.
    with pytest.raises(RetryAfter):
        await app.bot.edit_message_text("edited", alice.id, 2)
    assert api.flood_hits == 2


async def test_group_budget_per_minute_with_a_fake_clock() -> None:
    now = [1000.0]
    rules = FloodRules(per_chat_per_second=None, per_group_per_minute=3, overall_per_second=None)
    async with FakeBotAPI(flood=rules, clock=lambda: now[0]) as api:
        app = api.builder().build()
        village = api.group("Village")
        async with polling(app):
            for i in range(3):
                await app.bot.send_message(village.id, f"news {i}")
            with pytest.raises(RetryAfter) as raised:
                await app.bot.send_message(village.id, "one too many")
            assert raised.value.retry_after == 60
            now[0] += 60
            await app.bot.send_message(village.id, "a minute later")
        assert [m.text for m in api.messages(village)][-1] == "a minute later"


async def test_injected_failure(api, bot) -> None:
    app, _ = bot
    alice = api.user("Alice")
    await alice.start()
    await api.wait_for(lambda: api.sent_to(alice))
    api.fail_next("send_message", 429, "Too Many Requests: retry after 3", retry_after=3)
    with pytest.raises(RetryAfter) as raised:
        await app.bot.send_message(alice.id, "injected")
    assert raised.value.retry_after == 3
    await app.bot.send_message(alice.id, "fine again")
    assert api.last(alice).text == "fine again"


async def test_commands_are_stored_per_scope_and_language(api, bot) -> None:
    app, _ = bot
    await app.bot.set_my_commands([BotCommand("newgame", "Start a game")])
    await app.bot.set_my_commands([BotCommand("newgame", "Neues Spiel")], language_code="de")
    await app.bot.set_my_commands(
        [BotCommand("join", "Join the game")], scope=BotCommandScopeAllGroupChats()
    )
    assert api.commands() == [{"command": "newgame", "description": "Start a game"}]
    assert api.commands(language_code="de")[0]["description"] == "Neues Spiel"
    assert api.commands({"type": "all_group_chats"})[0]["command"] == "join"
    german = await app.bot.get_my_commands(language_code="de")
    assert german == (BotCommand("newgame", "Neues Spiel"),)
    assert await app.bot.get_my_commands(language_code="fr") == ()
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await app.bot.set_my_commands([BotCommand("NewGame", "capitals are not allowed")])
    assert api.violations == [
        "setMyCommands.commands[0].command: BOT_COMMAND_INVALID (answered 400)"
    ]
    api.violations.clear()
    await app.bot.delete_my_commands(language_code="de")
    assert api.commands(language_code="de") == []


async def test_restrict_chat_member_mutes_and_unmutes(api, bot) -> None:
    app, _ = bot
    alice, bob = api.user("Alice"), api.user("Bob")
    village = api.group("Village", members=[alice, bob], supergroup=True, bot_admin=True)

    await app.bot.restrict_chat_member(village.id, bob.id, ChatPermissions.no_permissions())
    assert village.status(bob) == "restricted"
    member = await app.bot.get_chat_member(village.id, bob.id)
    assert isinstance(member, ChatMemberRestricted)
    assert member.can_send_messages is False and member.is_member is True
    with pytest.raises(AssertionError, match="cannot post"):
        await bob.send("I am not dead!", chat=village)

    await app.bot.restrict_chat_member(village.id, bob.id, ChatPermissions.all_permissions())
    assert village.status(bob) == "member"
    await bob.send("back", chat=village)

    with pytest.raises(BadRequest, match="User is an administrator"):
        village.make_admin(alice)
        await app.bot.restrict_chat_member(village.id, alice.id, ChatPermissions.no_permissions())

    weak = api.group("Hamlet", members=[bob], supergroup=True)  # the bot: a plain member
    with pytest.raises(BadRequest, match="Not enough rights to restrict/unrestrict chat member"):
        await app.bot.restrict_chat_member(weak.id, bob.id, ChatPermissions.no_permissions())
    basic = api.group("Hut", members=[bob], bot_admin=True)  # a basic group
    with pytest.raises(BadRequest, match="Method is available only for supergroups"):
        await app.bot.restrict_chat_member(basic.id, bob.id, ChatPermissions.no_permissions())

    admins = await app.bot.get_chat_administrators(village.id)
    assert {a.status for a in admins} == {"creator", "administrator"}
    assert {a.user.id for a in admins if a.status == "administrator"} == {alice.id, app.bot.id}


async def test_edited_message_is_delivered(api, bot) -> None:
    _, seen = bot
    api.privacy = False
    alice = api.user("Alice")
    village = api.group("Village", members=[alice])
    said = await alice.send("I vote Bob", chat=village)
    await alice.edit(said, "I vote Carol")
    edited = await api.wait_for(lambda: [u for u in seen if u.edited_message])

    assert edited[0].edited_message.text == "I vote Carol"
    assert edited[0].edited_message.message_id == said.message_id
    assert edited[0].edited_message.edit_date is not None
    versions = [v.text for v in api.history(village, include_users=True) if not v.from_bot]
    assert versions == ["I vote Bob", "I vote Carol"]


async def test_privacy_mode_filters_group_messages() -> None:
    async with FakeBotAPI(privacy=True) as api:
        seen: list[Update] = []
        app = build_app(api, seen)
        alice = api.user("Alice")
        village = api.group("Village", members=[alice], bot_admin=False)
        async with polling(app):
            assert app.bot.can_read_all_group_messages is False
            await alice.send("just chatting", chat=village)
            await alice.send("/start@other_bot", chat=village)
            await alice.send("hey @nightfall_test_bot", chat=village)
            await alice.send("/start", chat=village)
            reply = await api.wait_for(lambda: api.messages(village))  # the echo of the mention
            await alice.reply(reply[0], "answering the bot")
            await alice.send("/start@nightfall_test_bot", chat=village)
            await api.wait_for(lambda: len(seen) == 4)
            village.set_bot_admin()  # admins see everything
            await alice.send("now visible", chat=village)
            await api.wait_for(lambda: len(seen) == 6)  # my_chat_member + the message

        texts = [u.message.text for u in seen if u.message]
        assert texts == [
            "hey @nightfall_test_bot", "/start", "answering the bot",
            "/start@nightfall_test_bot", "now visible",
        ]
        assert seen[4].my_chat_member.new_chat_member.status == "administrator"
        # Skipped messages still used message ids, as on Telegram.
        assert seen[0].message.message_id == 3


async def test_chat_info_invites_pins_and_block_update(api, bot) -> None:
    app, seen = bot
    alice = api.user("Alice", username="alice")
    village = api.group("Village", members=[alice], username="village", supergroup=True,
                        bot_admin=True)

    info = await app.bot.get_chat("@village")
    assert (info.id, info.type, info.title) == (village.id, "supergroup", "Village")
    assert (await app.bot.get_chat_member(village.id, alice.id)).status == "member"
    assert await app.bot.get_chat_member_count(village.id) == 3  # owner, Alice, the bot
    link = await app.bot.create_chat_invite_link(village.id, name="game night")
    assert link.invite_link.startswith("https://t.me/+") and link.name == "game night"
    assert (await app.bot.export_chat_invite_link(village.id)).startswith("https://t.me/+")

    board = await app.bot.send_message(village.id, "Scoreboard")
    await app.bot.pin_chat_message(village.id, board.message_id)
    assert api.pinned(village) == [board.message_id]
    assert (await app.bot.get_chat(village.id)).pinned_message.text == "Scoreboard"
    await app.bot.send_chat_action(village.id, "typing")
    assert api.chat_actions == [(village.id, "typing")]

    await alice.start()
    alice.block()
    update = await api.wait_for(lambda: [u for u in seen if u.my_chat_member])
    assert update[0].my_chat_member.new_chat_member.status == "kicked"
    assert update[0].my_chat_member.chat.id == alice.id


async def test_anonymous_admin_message(api, bot) -> None:
    _, seen = bot
    alice = api.user("Alice")
    village = api.group("Village", members=[alice], supergroup=True)
    with pytest.raises(AssertionError, match="not an admin"):
        await alice.send("boo", chat=village, anonymous=True)
    village.make_admin(alice)
    await alice.send("/start", chat=village, anonymous=True)
    [update] = await api.wait_for(lambda: [u for u in seen if u.message])
    assert update.message.from_user.id == GROUP_ANONYMOUS_BOT_ID
    assert update.message.sender_chat.id == village.id


async def test_long_poll_wakes_promptly_and_stop_is_fast() -> None:
    api = FakeBotAPI()
    await api.start()
    alice = api.user("Alice")
    url = f"{api.base_url}{api.token}/getUpdates"
    async with aiohttp.ClientSession() as http:
        poll = asyncio.create_task(http.post(url, data={"timeout": "5", "offset": "0"}))
        await asyncio.sleep(0.05)
        started = time.monotonic()
        await alice.start()
        response = await poll
        body = await response.json()
        assert time.monotonic() - started < 0.5
        assert body["ok"] is True and body["result"][0]["message"]["text"] == "/start"

        next_offset = body["result"][0]["update_id"] + 1
        waiting = asyncio.create_task(
            http.post(url, data={"timeout": "10", "offset": str(next_offset)})
        )
        await asyncio.sleep(0.05)
        started = time.monotonic()
        await api.stop()
        assert time.monotonic() - started < 0.5
        body = await (await waiting).json()
        assert body == {"ok": True, "result": []}
    assert api.pending_updates == 0  # the offset confirmed the /start update


async def test_wrong_token_unknown_method_and_wait_for_report(api, bot) -> None:
    app, _ = bot
    async with aiohttp.ClientSession() as http:
        response = await http.post(f"{api.base_url}999:wrong/getMe")
        assert response.status == 401
        assert await response.json() == {
            "ok": False, "error_code": 401, "description": "Unauthorized"
        }
    with pytest.raises(EndPointNotFound):
        await app.bot.do_api_request("sendDice", api_kwargs={"chat_id": 1})
    assert api.unknown_methods == ["sendDice"]
    api.unknown_methods.clear()

    with pytest.raises(TimeoutError, match="message versions"):
        await api.wait_for(lambda: False, timeout=0.05)



# --------------------------------------------------------------------------------------------
# Telegram's defaults, strictness and failures


async def test_defaults_are_a_new_bot_in_a_new_group(api, bot) -> None:
    """Privacy mode on, a basic group, the bot a plain member: it reads commands, mentions,
    replies to itself and service messages, and nothing else."""
    app, seen = bot
    assert api.privacy is True and api.query_timeout == 15.0
    assert app.bot.can_read_all_group_messages is False
    alice, bob = api.user("Alice"), api.user("Bob")
    village = api.group("Village", members=[alice])
    assert village.type == "group" and village.id < 0 and not str(village.id).startswith("-100")
    assert village.status(api.bot_id) == "member"

    await alice.send("just chatting", chat=village)
    await alice.send("hello @nightfall_test_bot", chat=village)  # echoed as a reply
    [echo] = await api.wait_for(lambda: api.messages(village))
    await alice.reply(echo, "thanks, bot")  # a reply to the bot
    village.add_member(bob)  # a service message
    await api.wait_for(lambda: len(seen) == 3)
    await api.settle()
    assert [u.message.text for u in seen] == ["hello @nightfall_test_bot", "thanks, bot", None]
    assert seen[2].message.new_chat_members[0].id == bob.id


@pytest.mark.filterwarnings("ignore:Please use:telegram.warnings.PTBUserWarning")
async def test_a_broken_limit_answers_400_and_is_recorded(api, bot) -> None:
    app, _ = bot
    alice = api.user("Alice")
    await alice.start()
    await api.wait_for(lambda: api.sent_to(alice))
    long_data = InlineKeyboardMarkup([[InlineKeyboardButton("Vote", callback_data="x" * 65)]])
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await app.bot.send_message(alice.id, "vote", reply_markup=long_data)
    assert api.violations == [
        "sendMessage.reply_markup.inline_keyboard[0][0].callback_data: BUTTON_DATA_INVALID "
        "(answered 400)"
    ]
    with pytest.raises(AssertionError, match="BUTTON_DATA_INVALID"):
        assert_no_violations(api)  # what the fixtures and Table.stop() do after a test
    api.violations.clear()
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await app.bot.send_photo(alice.id, "AgACfile", caption="c" * 1025)
    photo = await app.bot.send_photo(alice.id, "AgACfile", caption="<b>map</b>",
                                     parse_mode="HTML")
    assert photo.caption == "map" and photo.caption_entities[0].type == "bold"
    assert photo.photo[-1].file_id.startswith("AgACfile")
    with pytest.raises(BadRequest, match='must be of type integer'):
        await app.bot.do_api_request(
            "sendMessage", api_kwargs={"chat_id": alice.id, "text": "x", "message_thread_id": "a"}
        )
    assert [v.split(": ")[0] for v in api.violations] == [
        "sendPhoto.caption", "sendMessage.message_thread_id"
    ]
    api.violations.clear()
    assert len(api.sent_to(alice)) == 2  # the welcome and the photo


@pytest.mark.filterwarnings("ignore:Please use:telegram.warnings.PTBUserWarning")
async def test_an_unknown_parameter_is_ignored_as_telegram_does_but_recorded(api, bot) -> None:
    """A typo in a parameter name: Telegram sends the message without the keyboard. The fake
    does the same, and records why."""
    app, _ = bot
    alice = api.user("Alice")
    await alice.start()
    await api.wait_for(lambda: api.sent_to(alice))
    keyboard = JOIN_KEYBOARD.to_json()
    await app.bot.do_api_request(
        "sendMessage", api_kwargs={"chat_id": alice.id, "text": "hi", "reply_markkup": keyboard}
    )
    assert api.last(alice).text == "hi" and api.last(alice).buttons == []
    [violation] = api.violations
    assert "unknown parameter 'reply_markkup' (did you mean 'reply_markup'?)" in violation
    assert violation.endswith("(Telegram accepts it)")
    api.violations.clear()
    # a deep link whose payload a client would drop: accepted, but recorded
    link = InlineKeyboardMarkup([[InlineKeyboardButton(
        "Join", url="https://t.me/nightfall_test_bot?start=game:42")]])
    await app.bot.send_message(alice.id, "join", reply_markup=link)
    [violation] = api.violations
    assert "deep link start='game:42'" in violation
    api.violations.clear()


async def test_injected_errors_reach_ptb_as_their_exception_types(api, bot) -> None:
    app, _ = bot
    alice = api.user("Alice")
    await alice.start()
    await api.wait_for(lambda: api.sent_to(alice))
    cases = [
        (Errors.chat_migrated(-1001234567890), ChatMigrated, None),
        (Errors.bot_kicked(), Forbidden, "bot was kicked from the supergroup chat"),
        (Errors.bot_kicked(False), Forbidden, "bot was kicked from the group chat"),
        (Errors.not_a_member(), Forbidden, "bot is not a member of the supergroup chat"),
        (Errors.no_rights_to_send(), BadRequest, "Not enough rights to send text messages"),
        (Errors.topic_closed(), BadRequest, "Topic_closed"),
        (Errors.thread_not_found(), BadRequest, "Message thread not found"),
        (Errors.cant_be_edited(), BadRequest, "Message can't be edited"),
        (Errors.not_modified(), BadRequest, "Message is not modified: specified new"),
        (Errors.query_too_old(), BadRequest, "Query is too old and response timeout expired"),
        (Errors.flood(7), RetryAfter, None),
        (Errors.bad_gateway(), NetworkError, "Bad Gateway"),
    ]
    for error, exception, text in cases:
        api.fail_next("sendMessage", error)
        with pytest.raises(exception, match=text) as raised:
            await app.bot.send_message(alice.id, "injected")
        if isinstance(raised.value, ChatMigrated):
            assert raised.value.new_chat_id == -1001234567890
        if isinstance(raised.value, RetryAfter):
            assert raised.value.retry_after == 7
    assert api.errors[0].parameters == {"migrate_to_chat_id": -1001234567890}
    # the error body carries `parameters` as Telegram's does
    api.fail_next("getMe", Errors.chat_migrated(-1009))
    async with aiohttp.ClientSession() as http:
        response = await http.post(f"{api.base_url}{api.token}/getMe")
        assert response.status == 400
        assert await response.json() == {
            "ok": False, "error_code": 400,
            "description": "Bad Request: group chat was upgraded to a supergroup chat",
            "parameters": {"migrate_to_chat_id": -1009},
        }
    assert [m.text for m in api.sent_to(alice)] == ["Welcome to Nightfall"]  # none was sent


async def test_a_delayed_answer_times_out_although_the_message_was_sent(api, bot) -> None:
    app, _ = bot
    alice = api.user("Alice")
    await alice.start()
    await api.wait_for(lambda: api.sent_to(alice))
    api.delay_next("sendMessage", 1.0)
    with pytest.raises(TimedOut):
        await app.bot.send_message(alice.id, "Your role: seer", read_timeout=0.2)
    assert api.last(alice).text == "Your role: seer"  # delivered all the same
    await api.settle()


async def test_callback_queries_expire_on_the_fakes_clock() -> None:
    now = [100.0]
    async with FakeBotAPI(clock=lambda: now[0]) as api:
        app = api.builder().build()
        alice = api.user("Alice")
        async with polling(app):
            await alice.start()
            sent = await app.bot.send_message(alice.id, "vote", reply_markup=JOIN_KEYBOARD)
            late, quick = await alice.press(sent, "join"), await alice.press(sent, "join")
            await app.bot.answer_callback_query(quick, "noted")
            now[0] += 15.5
            with pytest.raises(BadRequest, match="Query is too old"):
                await app.bot.answer_callback_query(late, "too late")
        assert api.answer_for(quick) == "noted" and not api.answered(late)
        assert_no_violations(api)


# --------------------------------------------------------------------------------------------
# The world Telegram has


async def test_forum_topics(api, bot) -> None:
    app, seen = bot
    alice, bob = api.user("Alice"), api.user("Bob")
    forum = api.group("Forum", members=[alice, bob], supergroup=True, forum=True)
    info = await app.bot.get_chat(forum.id)
    assert info.is_forum is True
    games = forum.create_topic("Games", by=alice)
    [created] = await api.wait_for(lambda: [u.message for u in seen if u.message])
    assert created.forum_topic_created.name == "Games"
    assert created.message_id == games.thread_id and created.message_thread_id == games.thread_id
    assert created.is_topic_message is True

    said = await bob.send("/start in the topic", chat=games)
    general = await bob.send("/start in General", chat=forum.general)
    await api.wait_for(lambda: len(seen) == 3)
    in_topic, in_general = seen[1].message, seen[2].message
    assert said["message_thread_id"] == games.thread_id and said["is_topic_message"] is True
    assert in_topic.message_thread_id == games.thread_id and in_topic.is_topic_message
    assert in_topic.reply_to_message.message_id == created.message_id  # Telegram's implicit reply
    assert "message_thread_id" not in general and in_general.message_thread_id is None

    sent = await app.bot.send_message(forum.id, "news", message_thread_id=games.thread_id)
    assert sent.message_thread_id == games.thread_id and sent.is_topic_message
    await app.bot.send_message(forum.id, "general news")
    assert [m.text for m in api.messages(games)] == ["news"]
    assert [m.text for m in api.messages(forum.general)] == ["general news"]
    assert [m.text for m in api.messages(forum)] == ["news", "general news"]
    assert [v.text for v in api.history(games)] == ["news"]

    for thread in (999, 1):  # unknown; and General's own id, which the Bot API refuses
        with pytest.raises(BadRequest, match="Message thread not found"):
            await app.bot.send_message(forum.id, "lost", message_thread_id=thread)
    games.close(by=alice)
    with pytest.raises(BadRequest, match="Topic_closed"):
        await app.bot.send_message(forum.id, "closed", message_thread_id=games.thread_id)
    with pytest.raises(AssertionError, match="closed"):
        await bob.send("let me in", chat=games)
    forum.set_bot_admin(can_manage_topics=True)  # admins who manage topics may post
    await app.bot.send_message(forum.id, "admins may", message_thread_id=games.thread_id)
    forum.set_bot_admin(False)
    games.reopen()
    forum.close_general(by=alice)
    with pytest.raises(BadRequest, match="Topic_closed"):
        await app.bot.send_message(forum.id, "general is closed")
    games.delete()
    with pytest.raises(BadRequest, match="Message thread not found"):
        await app.bot.send_message(forum.id, "gone", message_thread_id=games.thread_id)
    assert api.messages(games) == []
    await api.settle()
    services = [u.message for u in seen if u.message and u.message.text is None]
    assert [bool(m.forum_topic_closed) for m in services] == [False, True, False, True]
    assert services[-1].message_thread_id is None  # General's: no thread id

    plain = api.group("Plain", members=[alice], supergroup=True)
    ignored = await app.bot.send_message(plain.id, "no topics here", message_thread_id=5)
    assert ignored.message_thread_id is None  # Telegram ignores it outside forums


async def test_group_upgrade_migrates_the_chat_and_restarts_message_ids(api, bot) -> None:
    app, seen = bot
    alice = api.user("Alice")
    old = api.group("Village", members=[alice])
    for text in ("one", "two", "three"):
        await app.bot.send_message(old.id, text)
    new = old.upgrade(by=alice)
    assert new.type == "supergroup" and str(new.id).startswith("-100")
    assert new.status(alice) == "member" and new.status(api.bot_id) == "member"
    await api.wait_for(lambda: len(seen) == 2)  # both service messages, privacy mode or not
    assert seen[0].message.migrate_to_chat_id == new.id and seen[0].message.chat.id == old.id
    assert seen[1].message.migrate_from_chat_id == old.id and seen[1].message.message_id == 1

    with pytest.raises(ChatMigrated) as raised:
        await app.bot.send_message(old.id, "still there?")
    assert raised.value.new_chat_id == new.id
    with pytest.raises(ChatMigrated):
        await app.bot.edit_message_text("edited", old.id, 1)
    assert (await app.bot.get_chat(old.id)).type == "group"  # reading the old chat still works
    # the old message ids mean nothing in the new chat: its ids start afresh
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await app.bot.edit_message_text("edited", new.id, 3)
    first = await app.bot.send_message(new.id, "hello supergroup")
    assert first.message_id == 2
    with pytest.raises(BadRequest, match="Message can't be edited"):
        await app.bot.edit_message_text("edited", new.id, 1)  # the service message
    assert [m.text for m in api.messages(old)] == ["one", "two", "three"]
    with pytest.raises(AssertionError, match="upgraded"):
        await alice.send("hi", chat=old)


async def test_the_bot_losing_its_rights(api, bot) -> None:
    app, seen = bot
    alice = api.user("Alice")
    village = api.group("Village", members=[alice], supergroup=True)
    village.kick_bot()
    with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
        await app.bot.send_message(village.id, "hello?")
    with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
        await app.bot.get_chat(village.id)
    village.readd_bot()
    await app.bot.send_message(village.id, "back")
    village.restrict_bot(can_send_messages=False)
    with pytest.raises(BadRequest, match="Not enough rights to send text messages to the chat"):
        await app.bot.send_message(village.id, "muted")
    village.set_bot_admin()
    village.set_permissions(can_send_messages=False)
    await app.bot.send_message(village.id, "admins may")
    village.set_bot_admin(False)
    with pytest.raises(BadRequest, match="Not enough rights to send text messages"):
        await app.bot.send_message(village.id, "members may not")
    village.remove_bot()
    with pytest.raises(Forbidden, match="bot is not a member of the supergroup chat"):
        await app.bot.send_message(village.id, "gone")

    hut = api.group("Hut", members=[alice])  # a basic group: reads still work after a kick
    hut.kick_bot()
    assert (await app.bot.get_chat(hut.id)).title == "Hut"
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await app.bot.send_message(hut.id, "hello?")

    await api.settle()
    statuses = [u.my_chat_member.new_chat_member.status for u in seen if u.my_chat_member]
    assert statuses == ["kicked", "member", "restricted", "administrator", "member", "left",
                        "kicked"]
    readded = [u.message for u in seen if u.message and u.message.new_chat_members]
    assert readded[0].new_chat_members[0].id == app.bot.id


async def test_member_permissions_are_stored_as_telegram_computes_them(api, bot) -> None:
    """Restoring a member with the group's permissions: without
    use_independent_chat_permissions, can_send_other_messages implies every media permission
    (so the member gets photos the group does not allow); with it, they are taken as given.
    A member left with every permission is a plain member again."""
    app, _ = bot
    bob = api.user("Bob")
    village = api.group("Village", members=[bob], supergroup=True, bot_admin=True)
    village.set_permissions(can_send_photos=False, can_send_polls=False)
    defaults = (await app.bot.get_chat(village.id)).permissions
    assert defaults.can_send_photos is False and defaults.can_send_other_messages is True

    await app.bot.restrict_chat_member(village.id, bob.id, ChatPermissions.no_permissions())
    assert not village.can_send(bob)
    await app.bot.restrict_chat_member(village.id, bob.id, defaults)
    assert village.status(bob) == "restricted" and village.can_send(bob)
    assert village.permissions(bob)["can_send_photos"] is True  # implied
    await app.bot.restrict_chat_member(village.id, bob.id, defaults,
                                       use_independent_chat_permissions=True)
    assert village.permissions(bob)["can_send_photos"] is False
    assert village.permissions(bob)["can_send_polls"] is False
    await app.bot.restrict_chat_member(village.id, bob.id,
                                       ChatPermissions(can_send_polls=True))
    stored = village.permissions(bob)
    assert stored["can_send_messages"] is True and stored["can_send_photos"] is False
    await app.bot.restrict_chat_member(village.id, bob.id, ChatPermissions.all_permissions())
    assert village.status(bob) == "member" and village.permissions(bob) is None


async def test_channels_forward_into_their_discussion_group(api, bot) -> None:
    app, seen = bot
    alice = api.user("Alice")
    news = api.channel("News", owner=alice)
    village = api.group("Village", members=[alice], supergroup=True)
    village.link_channel(news)
    news.post("the weekly news")  # plain text: privacy mode keeps it from the bot
    news.post("/start the game")
    forward = news.last_forward
    assert forward is not None and forward["from"]["id"] == TELEGRAM_USER_ID
    assert forward["sender_chat"]["id"] == news.id and forward["is_automatic_forward"] is True
    [update] = await api.wait_for(lambda: [u for u in seen if u.message])
    message = update.message
    assert message.text == "/start the game" and message.is_automatic_forward is True
    assert message.from_user.id == TELEGRAM_USER_ID and message.sender_chat.id == news.id
    assert message.forward_origin.chat.id == news.id

    comment = await alice.reply(forward, "/start from a comment")
    assert comment["message_thread_id"] == forward.message_id
    assert "is_topic_message" not in comment
    await alice.send("/start as the channel", chat=village, as_channel=news)
    await api.wait_for(lambda: len([u for u in seen if u.message]) == 3)
    as_channel = [u.message for u in seen if u.message][-1]
    assert as_channel.from_user.id == CHANNEL_BOT_ID and as_channel.sender_chat.id == news.id

    village.make_admin(alice, custom_title="Mayor")
    await alice.send("/start anonymously", chat=village, anonymous=True)
    await api.wait_for(lambda: len([u for u in seen if u.message]) == 4)
    anonymous = [u.message for u in seen if u.message][-1]
    assert anonymous.from_user.id == GROUP_ANONYMOUS_BOT_ID
    assert anonymous.from_user.username == "GroupAnonymousBot"
    assert anonymous.sender_chat.id == village.id and anonymous.author_signature == "Mayor"

    with pytest.raises(Forbidden, match="bot is not a member of the channel chat"):
        await app.bot.send_message(news.id, "may I?")  # bots are in channels only as admins


async def test_emit_raw_delivers_any_update_kind_as_allowed(api, bot) -> None:
    _, seen = bot
    alice = api.user("Alice")
    village = api.group("Village", members=[alice], supergroup=True)
    chat = {"id": village.id, "type": "supergroup", "title": "Village"}
    api.emit_raw("message_reaction", {  # not among the updates a bot gets unasked
        "chat": chat, "message_id": 1, "date": 1_700_000_000, "user": alice.to_dict(),
        "old_reaction": [], "new_reaction": [{"type": "emoji", "emoji": "👍"}]})
    api.emit_raw("edited_message", {
        "message_id": 1, "date": 1_700_000_000, "edit_date": 1_700_000_100, "chat": chat,
        "from": alice.to_dict(), "text": "edited elsewhere"})
    [update] = await api.wait_for(lambda: seen)
    await api.settle()
    assert len(seen) == 1 and update.edited_message.text == "edited elsewhere"
    with pytest.raises(AssertionError, match="not an Update field"):
        api.emit_raw("no_such_update", {})


# --------------------------------------------------------------------------------------------
# Webhooks


@contextlib.asynccontextmanager
async def webhook_receiver(answers: list[int]) -> AsyncIterator[tuple[str, list[dict]]]:
    """A stand-in for the bot's webhook: answers each POST with the next status of `answers`
    (then 200) and records what it received (the body and the secret header)."""
    received: list[dict] = []

    async def hook(request: web.Request) -> web.Response:
        received.append({"update": await request.json(),
                         "secret": request.headers.get("X-Telegram-Bot-Api-Secret-Token")})
        return web.Response(status=answers.pop(0) if answers else 200)

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/hook", received
    finally:
        await runner.cleanup()


async def test_webhook_delivery_in_order_with_retries() -> None:
    async with FakeBotAPI() as api, webhook_receiver([500, 502]) as (url, received):
        app = api.builder().build()
        await app.initialize()
        try:
            assert await app.bot.set_webhook(url, secret_token="s3cret-1")
            alice = api.user("Alice")
            await alice.start()
            await alice.send("/help")
            await api.wait_for(lambda: api.pending_updates == 0, timeout=5)
            texts = [r["update"]["message"]["text"] for r in received]
            assert texts == ["/start", "/start", "/start", "/help"]  # the same one retried
            assert {r["secret"] for r in received} == {"s3cret-1"}
            first, second = (r["update"]["update_id"] for r in received[2:])
            assert api.webhook_deliveries == [(first, 500), (first, 502), (first, 200),
                                              (second, 200)]
            info = await app.bot.get_webhook_info()
            assert info.url == url and "502 Bad Gateway" in info.last_error_message
            with pytest.raises(Conflict, match="can't use getUpdates method while webhook"):
                await app.bot.get_updates()
            with pytest.raises(RetryAfter):  # a new URL at most once a second
                await app.bot.set_webhook(url + "2")
            assert await app.bot.delete_webhook()
            await alice.send("/help")
            await asyncio.sleep(0.3)
            assert len(received) == 4 and api.pending_updates == 1
        finally:
            await app.shutdown()
        assert_no_violations(api)


async def test_webhook_retries_until_the_bot_listens_then_ptb_receives() -> None:
    """PTB sets its webhook before its web server listens: the first deliveries find nobody
    and are retried, so the update arrives once PTB is up."""
    async with FakeBotAPI() as api:
        seen: list[Update] = []
        app = build_app(api, seen)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        alice = api.user("Alice")
        await alice.start()  # pending before the webhook exists
        await app.initialize()
        await app.start()
        assert app.updater is not None
        try:
            await app.updater.start_webhook(
                listen="127.0.0.1", port=port, url_path="hook", secret_token="s3cret",
                webhook_url=f"http://127.0.0.1:{port}/hook")
            [welcome] = await api.wait_for(lambda: api.sent_to(alice), timeout=5)
            assert welcome.text == "Welcome to Nightfall"
            assert api.webhook_deliveries[-1][1] == 200
        finally:
            await app.updater.stop()
            await app.stop()
            await app.shutdown()
        assert_no_violations(api)


async def test_edits_and_at_list_picks_reach_the_bot_as_on_telegram(api) -> None:
    """An `edited_message` is delivered only to a bot that asked for it in allowed_updates
    (a bot asking for "message" alone never hears of edits); a person picked from the @-list
    without a username arrives as a `text_mention` naming his account."""
    alice, kim = api.user("Alice"), api.user("Kim", last_name="Lee")
    url = f"{api.base_url}{api.token}/getUpdates"

    async def updates(allowed: list[str]) -> list[dict]:
        async with aiohttp.ClientSession() as http:
            response = await http.post(url, json={"timeout": 0, "allowed_updates": allowed})
            found = (await response.json())["result"]
            if found:
                await http.post(url, json={"offset": found[-1]["update_id"] + 1})
            return found

    first = await alice.send("/vote Kim Lee", picked=[("Kim Lee", kim)])
    [sent] = await updates(["message"])
    [mention] = [e for e in sent["message"]["entities"] if e["type"] == "text_mention"]
    assert (mention["offset"], mention["length"], mention["user"]["id"]) == (6, 7, kim.id)
    await alice.edit(first, "/vote Bob")
    assert await updates(["message"]) == []  # not asked for: dropped, as Telegram does
    second = await alice.send("/vote Cid")
    await updates(["message"])
    await alice.edit(second, "/vote Dot")
    [edited] = await updates(["message", "edited_message"])
    assert edited["edited_message"]["text"] == "/vote Dot"


async def test_members_leaving_reach_an_admin_bot_that_asked_as_on_telegram(api) -> None:
    """A member leaving, or an admin removing or banning him: a `left_chat_member` service
    message (sent by whoever removed him) to any bot in the group, and a `chat_member` update
    (with the admin as `from`) only to a bot that is an administrator there and asked for it
    in allowed_updates."""
    alice, bob, cid = api.user("Alice"), api.user("Bob"), api.user("Cid")
    url = f"{api.base_url}{api.token}/getUpdates"

    async def updates(allowed: list[str]) -> list[dict]:
        async with aiohttp.ClientSession() as http:
            response = await http.post(url, json={"timeout": 0, "allowed_updates": allowed})
            found = (await response.json())["result"]
            if found:
                await http.post(url, json={"offset": found[-1]["update_id"] + 1})
            return found

    plain = api.group("Plain", members=[alice, bob], supergroup=True)
    plain.remove_member(bob)
    [left] = await updates(["message", "chat_member"])  # a plain member bot: the message only
    assert left["message"]["left_chat_member"]["id"] == bob.id
    assert left["message"]["from"]["id"] == bob.id

    ruled = api.group("Ruled", members=[alice, bob, cid], supergroup=True, bot_admin=True)
    ruled.kick_member(bob, by=alice)
    assert ruled.status(bob) == "kicked"
    message, member = await updates(["message", "chat_member"])
    assert message["message"]["from"]["id"] == alice.id
    assert message["message"]["left_chat_member"]["id"] == bob.id
    change = member["chat_member"]
    assert change["from"]["id"] == alice.id
    assert (change["old_chat_member"]["status"], change["new_chat_member"]["status"]) == \
        ("member", "kicked")
    ruled.kick_member(cid, by=alice, ban=False)  # "Remove from group": he may come back
    assert ruled.status(cid) == "left"
    assert [u for u in await updates(["message"]) if "chat_member" in u] == []  # not asked
    assert_no_violations(api)
