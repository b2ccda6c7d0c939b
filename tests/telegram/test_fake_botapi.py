"""The fake Bot API against the real python-telegram-bot stack.

These tests pin the behaviours the adapter's end-to-end tests rely on: that PTB's Application
can run against the fake unchanged (getMe, deleteWebhook, long polling), and that the fake
answers like Telegram where the game could go wrong (403 for users who never started the bot,
limits, "message is not modified", flood control, member restrictions, privacy mode)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    ChatMemberRestricted,
    ChatPermissions,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
)
from telegram.error import BadRequest, EndPointNotFound, Forbidden, RetryAfter
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
    GROUP_ANONYMOUS_BOT_ID,
    FakeBotAPI,
    FloodRules,
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
    assert app.bot.can_read_all_group_messages is True

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
    alice, bob = api.user("Alice"), api.user("Bob")
    village = api.group("Village", members=[alice, bob])
    castle = api.group("Castle", members=[bob], supergroup=False)
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
    await app.bot.delete_my_commands(language_code="de")
    assert api.commands(language_code="de") == []


async def test_restrict_chat_member_mutes_and_unmutes(api, bot) -> None:
    app, _ = bot
    alice, bob = api.user("Alice"), api.user("Bob")
    village = api.group("Village", members=[alice, bob])

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

    weak = api.group("Hamlet", members=[bob], bot_admin=False)
    with pytest.raises(BadRequest, match="Not enough rights to restrict/unrestrict chat member"):
        await app.bot.restrict_chat_member(weak.id, bob.id, ChatPermissions.no_permissions())
    basic = api.group("Hut", members=[bob], supergroup=False)
    with pytest.raises(BadRequest, match="Method is available only for supergroups"):
        await app.bot.restrict_chat_member(basic.id, bob.id, ChatPermissions.no_permissions())

    admins = await app.bot.get_chat_administrators(village.id)
    assert {a.status for a in admins} == {"creator", "administrator"}
    assert {a.user.id for a in admins if a.status == "administrator"} == {alice.id, app.bot.id}


async def test_edited_message_is_delivered(api, bot) -> None:
    _, seen = bot
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
    village = api.group("Village", members=[alice], username="village")

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
    village = api.group("Village", members=[alice])
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

