"""A fake Telegram Bot API server for end-to-end tests of the Telegram adapter.

Why it exists: the adapter has to be tested through the real python-telegram-bot stack
(`Application`, `Updater` long polling or webhooks, httpx, `ExtBot`, PTB's mapping of HTTP
errors to exceptions), but without Telegram. No ready-made emulator speaks enough of the Bot
API for PTB 22 with group chats, so this module serves the part of the Bot API the game uses
over HTTP on 127.0.0.1 (aiohttp, in the test's own event loop) and lets the test act as the
human users: send messages, press buttons, edit, block the bot, run forums and channels.

It is meant to be as strict as Telegram, so that tests show the bugs production would:

- Real defaults: a new bot has privacy mode on; a new group is a basic group (negative id
  without -100) where the bot is a plain member. Tests that want a friendlier world ask.
- Every request is checked against the Bot API's parameter table (`botapi_methods.json`,
  via `botapi_spec.py`): missing or mistyped parameters and broken limits answer Telegram's
  400, unknown parameters are ignored as Telegram does; all of them are recorded in
  `api.violations`, which the fixtures require to be empty.
- Telegram's rules and error texts (`botapi_errors.py`): per-chat message ids, private chats
  the bot may write to only after /start, member statuses and permissions (computed like the
  server does), "message is not modified", callback queries that expire after 15 s and take
  one answer, flood control (429 with retry_after), bots kicked or restricted, groups
  upgraded to supergroups (ChatMigrated), forum topics, channels (`fake_world.py`).
- Injectable failures: `fail_next(method, Errors.x())`, `delay_next(method, seconds)`.
- Webhooks: after setWebhook the fake POSTs updates to the bot and retries on failure.

Payloads that have a PTB class behind them with many version-dependent fields (chat members,
full chat info, invite links) are built through PTB's own classes, so the shapes follow the
installed PTB.

Typical use::

    async with FakeBotAPI() as api:
        app = api.builder().build()        # token + base_url pointing at the fake
        app.add_handler(...)
        async with polling(app):
            alice = api.user("Alice")
            await alice.start()
            [hello] = await api.wait_for(lambda: api.sent_to(alice))
            query = await alice.press(hello, "join")
            await api.wait_for(lambda: api.answered(query))
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import itertools
import json
import logging
import math
import struct
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import telegram
from aiohttp import web
from yarl import URL

from .botapi_errors import NOT_MODIFIED, ApiError, BotAPIError, Errors, bad, forbidden
from .botapi_format import (
    COMMAND_RE,
    DEEP_LINK_RE,
    MENTION_RE,
    detect_entities,
    inline_keyboard,
    parse_formatted,
    u16len,
)
from .botapi_spec import BotAPISpec, Problem
from .fake_outage import Mode, Outage
from .fake_state import (
    ADMIN_RIGHT_FIELDS,
    CHANNEL_BOT_ID,
    DEFAULT_ADMIN_RIGHTS,
    DEFAULT_ALLOWED_UPDATES,
    DEFAULT_BOT_USERNAME,
    DEFAULT_TOKEN,
    GROUP_ANONYMOUS_BOT_ID,
    PERMISSION_FIELDS,
    SERVICE_USERS,
    TELEGRAM_USER_ID,
    Chat,
    Member,
    Message,
    MessageView,
    Query,
    chat_permissions,
    epoch,
    locate,
    now,
    ptb_dict,
    user_id_of,
)
from .fake_world import FakeChannel, FakeTopic, WorldMixin

if TYPE_CHECKING:
    from telegram.ext import Application, ApplicationBuilder

log = logging.getLogger(__name__)

MAX_TEXT_LENGTH = 4096
#: Seconds after which Telegram no longer takes an answer to a callback query.
QUERY_TIMEOUT = 15.0


# --------------------------------------------------------------------------------------------
# Flood control


@dataclass(frozen=True)
class FloodRules:
    """Telegram's flood limits as budgets; None switches a limit off.

    Telegram does not publish its algorithm; this is the documented shape of it: about one
    message per second in one chat with short bursts tolerated (`burst` messages back to back),
    at most `per_group_per_minute` in one group per sliding minute, and about
    `overall_per_second` across all chats. Sends and edits both spend budget."""

    per_chat_per_second: float | None = 1.0
    per_group_per_minute: int | None = 20
    overall_per_second: float | None = 30.0
    burst: int = 3


class _Bucket:
    """A token bucket: `capacity` calls back to back, refilled at `rate` per second."""

    def __init__(self, rate: float, capacity: float, now: float) -> None:
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.stamp = now

    def wait(self, now: float) -> float:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self) -> None:
        self.tokens -= 1


class _FloodControl:
    def __init__(self, rules: FloodRules, clock: Callable[[], float]) -> None:
        self.rules = rules
        self.clock = clock
        self.chats: dict[int, _Bucket] = {}
        self.groups: dict[int, deque[float]] = {}
        self.overall: _Bucket | None = None

    def check(self, chat_id: int, is_group: bool) -> None:
        """Spend one unit of every budget that applies, or raise 429 without spending any."""
        rules, now = self.rules, self.clock()
        waits = [0.0]
        chat_bucket = group_window = None
        if rules.per_chat_per_second:
            chat_bucket = self.chats.get(chat_id)
            if chat_bucket is None:
                chat_bucket = _Bucket(rules.per_chat_per_second, max(1, rules.burst), now)
                self.chats[chat_id] = chat_bucket
            waits.append(chat_bucket.wait(now))
        if is_group and rules.per_group_per_minute:
            group_window = self.groups.setdefault(chat_id, deque())
            while group_window and group_window[0] <= now - 60:
                group_window.popleft()
            if len(group_window) >= rules.per_group_per_minute:
                waits.append(group_window[0] + 60 - now)
        if rules.overall_per_second:
            if self.overall is None:
                rate = rules.overall_per_second
                self.overall = _Bucket(rate, max(1.0, rate), now)
            waits.append(self.overall.wait(now))
        wait = max(waits)
        if wait > 0:
            raise Errors.flood(max(1, math.ceil(wait)))
        if chat_bucket is not None:
            chat_bucket.take()
        if group_window is not None:
            group_window.append(now)
        if self.overall is not None:
            self.overall.take()


# --------------------------------------------------------------------------------------------
# Test-side actors


class FakeUser:
    """A human Telegram user driven by the test. Its actions become updates for the bot."""

    def __init__(
        self,
        api: FakeBotAPI,
        user_id: int,
        first_name: str,
        username: str | None,
        language_code: str | None,
        last_name: str | None = None,
    ) -> None:
        self.api = api
        self.id = user_id
        self.first_name = first_name
        self.last_name = last_name
        self.username = username
        self.language_code = language_code
        #: The user has opened the private chat with the bot (so the bot may write to it).
        self.started = False
        self.blocked = False

    def __repr__(self) -> str:
        return f"FakeUser({self.first_name!r}, id={self.id})"

    @property
    def chat_id(self) -> int:
        """A private chat's id is the user's id."""
        return self.id

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data

    async def send(
        self,
        text: str,
        chat: FakeGroup | FakeTopic | int | None = None,
        reply_to: Any = None,
        *,
        anonymous: bool = False,
        as_channel: FakeChannel | None = None,
        picked: Sequence[tuple[str, FakeUser]] = (),
    ) -> MessageView:
        """Type `text` into the private chat with the bot (chat=None), a group, or a forum
        topic (chat=FakeTopic; General: `group.general`).

        Adds bot_command / mention entities like a client does. `picked`: people chosen from
        the @-list, each as (the words the client put into `text` for him, the user); a user
        without a username becomes a `text_mention` entity over those words, naming his
        account (one with a username is inserted as "@username", a plain mention). Sending
        in private marks the user as having started the bot. In groups the bot receives the
        message only when privacy mode lets it through (commands, @mentions, replies to the
        bot) or the bot is an administrator. `anonymous=True` posts as an anonymous group
        admin (from = GroupAnonymousBot, sender_chat = the group, author_signature = the
        admin's custom title); `as_channel` posts on behalf of a channel the user
        administers (from = Channel_Bot, sender_chat = the channel). Raises AssertionError
        for what a real client cannot do: post in a group one is not in or is muted in, in a
        closed topic without admin rights, or write to a bot one has blocked."""
        message = self.api._user_message(self, chat, text, reply_to, anonymous, as_channel,
                                         picked)
        await asyncio.sleep(0)
        return message

    async def reply(self, message: Any, text: str) -> MessageView:
        """Reply to `message` in its chat (a reply to the bot passes privacy mode); in a forum
        the reply goes to the message's topic."""
        chat_id, _ = locate(message)
        chat = None if chat_id == self.id else chat_id
        return await self.send(text, chat=chat, reply_to=message)

    async def start(self, payload: str | None = None) -> MessageView:
        """Press Start in the private chat, optionally through a t.me deep link:
        the bot receives "/start" or "/start <payload>". Unblocks the bot like "Restart" does."""
        if payload is not None:
            assert DEEP_LINK_RE.fullmatch(payload), (
                f"deep-link payload {payload!r} is not 1-64 characters of A-Za-z0-9_- ;"
                " Telegram would not pass it to the bot"
            )
        if self.blocked:
            self.unblock()
        return await self.send("/start" if payload is None else f"/start {payload}")

    async def press(self, message: Any, data: str | None = None, *, text: str | None = None) -> str:
        """Press the inline button with callback_data `data` (or label `text`) under `message`.

        Asserts that a real client could: the message exists in the chat it claims, the user
        can see that chat, and the button is on the message's *current* keyboard. Returns the
        callback query id (see `FakeBotAPI.answer_for`)."""
        assert data is not None or text is not None, "press() needs data or text"
        query_id = self.api._press(self, message, data, text)
        await asyncio.sleep(0)
        return query_id

    async def press_forged(
        self, chat: FakeUser | FakeGroup | int, message_id: int, data: str
    ) -> str:
        """Send a callback query with arbitrary data, as a modified client can: no check that
        the button exists (or that the message does). Returns the query id."""
        query_id = self.api._forged_press(self, chat, message_id, data)
        await asyncio.sleep(0)
        return query_id

    async def edit(self, message: Any, new_text: str) -> MessageView:
        """Edit one of this user's own messages; the bot gets an `edited_message` update."""
        view = self.api._user_edit(self, message, new_text)
        await asyncio.sleep(0)
        return view

    def block(self) -> None:
        """Block the bot: its sends to this user now fail with 403; the bot gets my_chat_member."""
        if not self.blocked:
            self.blocked = True
            self.api._private_status_change(self, "member", "kicked")

    def unblock(self) -> None:
        if self.blocked:
            self.blocked = False
            self.api._private_status_change(self, "kicked", "member")


class FakeGroup:
    """A group, supergroup or forum. Membership changes are made by the test (as Telegram users
    would) and, where Telegram notifies bots, announced as updates."""

    def __init__(self, api: FakeBotAPI, chat: Chat) -> None:
        self.api = api
        self._chat = chat

    def __repr__(self) -> str:
        return f"FakeGroup({self.title!r}, id={self.id})"

    @property
    def id(self) -> int:
        return self._chat.id

    chat_id = id

    @property
    def title(self) -> str:
        return self._chat.title or ""

    @property
    def type(self) -> str:
        return self._chat.type

    @property
    def is_forum(self) -> bool:
        return self._chat.is_forum

    @property
    def migrated_to(self) -> int | None:
        """The supergroup's id once this basic group was upgraded."""
        return self._chat.migrated_to

    def status(self, user: FakeUser | int) -> str:
        """creator, administrator, member, restricted, left or kicked."""
        member = self._chat.members.get(user_id_of(user))
        return member.status if member else "left"

    def permissions(self, user: FakeUser | int | None = None) -> dict[str, bool] | None:
        """Without `user`: the group's default permissions for members. With one: that
        member's own permissions as Telegram stored them if restricted, else None."""
        if user is None:
            return dict(self._chat.permissions)
        member = self._chat.members.get(user_id_of(user))
        return dict(member.permissions) if member and member.permissions is not None else None

    def can_send(self, user: FakeUser | int) -> bool:
        """Whether a real client would let this user post a text message here."""
        return self.api._can_post(self._chat, user_id_of(user))

    def member(self, user: FakeUser | int) -> dict[str, Any]:
        """The ChatMember dict getChatMember would return."""
        return self.api._member_dict(self._chat, user_id_of(user))

    def messages(self, *, include_users: bool = False) -> list[MessageView]:
        return self.api.messages(self, include_users=include_users)

    # ---- members ------------------------------------------------------------------------------

    def add_member(self, user: FakeUser, *, announce: bool = True) -> None:
        """The user joins. With `announce`, a new_chat_members service message (delivered in
        privacy mode too) and a chat_member update are emitted."""
        old = self.status(user)
        self._chat.members[user.id] = Member("member")
        if announce:
            self.api._service_message(self._chat, user.id, {"new_chat_members": [user.to_dict()]})
            self.api._chat_member_update(self._chat, user.id, user.id, old)

    def remove_member(self, user: FakeUser, *, announce: bool = True) -> None:
        """The user leaves the group."""
        old = self.status(user)
        self._chat.members[user.id] = Member("left", is_member=False)
        if announce:
            self.api._service_message(self._chat, user.id, {"left_chat_member": user.to_dict()})
            self.api._chat_member_update(self._chat, user.id, user.id, old)

    def kick_member(self, user: FakeUser, *, by: FakeUser | None = None,
                    ban: bool = True) -> None:
        """An admin (`by`, else the owner) removes the user: banned ("kicked", Telegram's
        status for a ban), or with `ban=False` removed and let back in at once (the app's
        "Remove from group": banChatMember then unbanChatMember), which leaves him "left".
        As on Telegram: a left_chat_member service message sent by the admin, and a
        chat_member update with the admin as `from`."""
        actor = by.id if by is not None else self.api._owner_of(self._chat)
        old = self.status(user)
        assert old not in ("left", "kicked"), f"{user.first_name} is not in the group ({old})"
        self._chat.members[user.id] = Member("kicked" if ban else "left", is_member=False)
        self.api._service_message(self._chat, actor, {"left_chat_member": user.to_dict()})
        self.api._chat_member_update(self._chat, user.id, actor, old)

    def make_admin(self, user: FakeUser, *, custom_title: str | None = None,
                   **rights: bool) -> None:
        """Promote `user` to administrator (usual default rights, overridden by `rights`).
        `custom_title` becomes the author_signature of their anonymous messages."""
        old = self.status(user)
        rights = {**DEFAULT_ADMIN_RIGHTS, **rights}
        self._chat.members[user.id] = Member("administrator", rights=rights,
                                             custom_title=custom_title)
        self.api._chat_member_update(self._chat, user.id, self.api._owner_of(self._chat), old)

    def set_permissions(self, **flags: bool) -> None:
        """Change the group's default permissions (what an admin sets in the group settings);
        flags not given keep their value. Plain members, the bot among them, are bound by
        them."""
        unknown = set(flags) - set(PERMISSION_FIELDS)
        assert not unknown, f"not ChatPermissions flags: {sorted(unknown)}"
        self._chat.permissions.update({k: bool(v) for k, v in flags.items()})

    # ---- the bot's membership -----------------------------------------------------------------

    def set_bot_admin(self, admin: bool = True, **rights: bool) -> None:
        """Make the bot an administrator (with `rights` over the defaults) or a plain member."""
        if admin:
            member = Member("administrator", rights={**DEFAULT_ADMIN_RIGHTS, **rights})
        else:
            member = Member("member")
        self.api._set_bot_member(self._chat, member)

    def remove_bot(self) -> None:
        """Someone removes the bot from the group: my_chat_member (left), and 403 "bot is not a
        member of the ... chat" afterwards."""
        self.api._set_bot_member(self._chat, Member("left", is_member=False))

    def kick_bot(self) -> None:
        """An admin bans the bot: my_chat_member (kicked), and 403 "bot was kicked from the ...
        chat" afterwards."""
        self.api._set_bot_member(self._chat, Member("kicked", is_member=False))

    def restrict_bot(self, **permissions: bool) -> None:
        """An admin restricts the bot (supergroups only), e.g. can_send_messages=False: every
        send then answers 400 "not enough rights to send text messages to the chat". Flags
        not given stay allowed."""
        assert self._chat.type == "supergroup", "Telegram restricts members in supergroups only"
        unknown = set(permissions) - set(PERMISSION_FIELDS)
        assert not unknown, f"not ChatPermissions flags: {sorted(unknown)}"
        flags = {name: bool(permissions.get(name, True)) for name in PERMISSION_FIELDS}
        self.api._set_bot_member(self._chat, Member("restricted", permissions=flags))

    def readd_bot(self, admin: bool = False, **rights: bool) -> None:
        """Someone adds the bot (back): my_chat_member and a new_chat_members service message
        naming the bot, as Telegram sends them."""
        old = self.status(self.api.bot_id)
        assert old in ("left", "kicked"), f"the bot is already in the group ({old})"
        self.set_bot_admin(admin, **rights)
        actor = self.api._owner_of(self._chat)
        self.api._service_message(
            self._chat, actor, {"new_chat_members": [self.api._bot_dict()]}
        )

    # ---- forums, upgrades, channels -----------------------------------------------------------

    @property
    def general(self) -> FakeTopic:
        """The General topic of a forum (its messages have no message_thread_id)."""
        assert self._chat.is_forum, f"{self.title!r} is not a forum"
        return FakeTopic(self, None)

    @property
    def topics(self) -> list[FakeTopic]:
        """The forum's topics (not General), deleted ones left out."""
        return [FakeTopic(self, t) for t in self._chat.topics.values() if not t.deleted]

    def create_topic(
        self, name: str, by: FakeUser | None = None, *, icon_color: int | None = None
    ) -> FakeTopic:
        """A member (by default the owner) creates a topic: the forum_topic_created service
        message is sent (and delivered, like every service message); its id is the topic's
        thread_id."""
        actor = user_id_of(by) if by is not None else self.api._owner_of(self._chat)
        return FakeTopic(self, self.api._create_topic(self._chat, name, actor, icon_color))

    def close_general(self, by: FakeUser | None = None) -> None:
        """Close General: a forum_topic_closed service message without message_thread_id; the
        bot's sends without a thread then answer TOPIC_CLOSED unless it manages topics."""
        self.api._set_topic_closed(self._chat, None, True, by)

    def reopen_general(self, by: FakeUser | None = None) -> None:
        self.api._set_topic_closed(self._chat, None, False, by)

    def upgrade(self, by: FakeUser | None = None) -> FakeGroup:
        """Upgrade this basic group to a supergroup (what Telegram does when an admin enables a
        supergroup feature) and return the new group. Both chats get their service message
        (migrate_to_chat_id / migrate_from_chat_id), which the bot receives even in privacy
        mode; the old id answers writes with ChatMigrated from then on."""
        actor = user_id_of(by) if by is not None else self.api._owner_of(self._chat)
        return FakeGroup(self.api, self.api._upgrade(self._chat, actor))

    def link_channel(self, channel: FakeChannel) -> None:
        """Make this supergroup the channel's discussion group: each channel post arrives here
        as an automatic forward."""
        self.api._link(self._chat, channel._chat)


# --------------------------------------------------------------------------------------------
# The server

#: Webhook redelivery: the first retry after this many seconds, doubling up to the maximum
#: (Telegram backs off the same way, in minutes; tests need seconds).
WEBHOOK_RETRY_FIRST = 0.2
WEBHOOK_RETRY_MAX = 2.0


@dataclass(frozen=True)
class _Described:
    """A successful result with the `description` Telegram adds to some answers (setWebhook:
    "Webhook was set", "Webhook is already deleted", ...)."""

    result: Any
    description: str


class FakeBotAPI(WorldMixin):
    """The fake Bot API server plus the state of its small Telegram world.

    Bot side: `/bot<token>/<method>` over HTTP (GET or POST; form, JSON or multipart bodies),
    or updates POSTed to the bot's webhook. Test side: `user()`, `group()`, `channel()`, the
    FakeUser/FakeGroup/FakeTopic/FakeChannel actions, `emit_raw`, failure injection
    (`fail_next`, `delay_next`, `outage`) and readers (`messages`, `sent_to`, `history`,
    `answer_for`, `calls`, `errors`, `violations`, `webhook_deliveries`, `wait_for`,
    `settle`)."""

    #: Every FakeBotAPI made while a test runs (the Telegram conftest checks their violations).
    created: list[FakeBotAPI] | None = None

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = DEFAULT_BOT_USERNAME,
        bot_name: str = "Nightfall",
        privacy: bool = True,
        flood: FloodRules | None = None,
        clock: Callable[[], float] = time.monotonic,
        query_timeout: float | None = QUERY_TIMEOUT,
        deliver_webhooks: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        """`privacy`: Telegram's privacy mode, on for every new bot (getMe's
        can_read_all_group_messages is its negation); settable at runtime. `flood`:
        FloodRules, None = no flood control. `clock`: the clock flood control, callback query
        expiry and setWebhook's rate limit read (tests that move time pass their own).
        `query_timeout`: seconds after which a callback query can no longer be answered
        (None = never). `deliver_webhooks`: POST updates to the bot's webhook once it set one
        (False for tests that play Telegram's side of the webhook themselves)."""
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.privacy = privacy
        self.clock = clock
        self.query_timeout = query_timeout
        self.deliver_webhooks = deliver_webhooks
        self.host = host
        self.port = port
        self._flood: _FloodControl | None = None
        self.flood = flood
        self.spec = BotAPISpec.load()

        #: Every call the bot made, in order: (method name, decoded parameters).
        self.calls: list[tuple[str, dict[str, Any]]] = []
        #: Methods the bot called that this fake does not implement (tests assert it is empty).
        self.unknown_methods: list[str] = []
        #: Every call answered with an error (injected, validation, 403, 429...).
        self.errors: list[ApiError] = []
        #: Requests Telegram would refuse or silently misread (missing, mistyped or unknown
        #: parameters, broken limits), one readable line each. The fixtures fail a test that
        #: leaves any; a test that provokes them on purpose clears the list.
        self.violations: list[str] = []
        #: Number of 429 replies.
        self.flood_hits = 0
        #: Unexpected exceptions inside the fake (bugs here, or parameters it could not read).
        self.internal_errors: list[str] = []
        #: sendChatAction calls: (chat_id, action).
        self.chat_actions: list[tuple[int, str]] = []
        self.webhook_url: str | None = None
        self.webhook_secret: str | None = None
        #: Every webhook delivery attempt: (update_id, HTTP status; None if no answer came).
        self.webhook_deliveries: list[tuple[int, int | None]] = []
        self._webhook_error: tuple[int, str] | None = None
        self._webhook_task: asyncio.Task[None] | None = None
        self._next_set_webhook = -math.inf
        #: Telegram takes a new webhook URL at most once a second per bot (429 "retry after 1"
        #: otherwise, telegram-bot-api's setWebhook); 0 switches the rule off.
        self.set_webhook_interval = 1.0

        self._users: dict[int, FakeUser] = {}
        self._chats: dict[int, Chat] = {}
        self._queries: dict[str, Query] = {}
        self._commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self._bot_texts: dict[tuple[str, str], str] = {}
        self._injected: dict[str, deque[BotAPIError]] = {}
        self._delays: dict[str, deque[float]] = {}
        #: The current (or last) outage, see `outage`.
        self.down: Outage | None = None
        self._user_ids = itertools.count(700_000_001)
        self._basic_group_ids = itertools.count(4_000_001)
        self._supergroup_ids = itertools.count(1_001)
        self._query_ids = itertools.count(5_000_000_001)
        self._link_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self.uploads: list[Upload] = []  # every photo the bot uploaded, in order

        self._pending: list[dict[str, Any]] = []
        self._next_update_id = 0
        self._highest_fetched = 0
        self._allowed_updates: frozenset[str] = DEFAULT_ALLOWED_UPDATES
        self._poll_generation = 0
        self._parked_generation = -1
        self._update_event = asyncio.Event()
        self._closing = False
        self._inflight = 0
        self._last_activity = 0.0

        self._runner: web.AppRunner | None = None
        self._url: str | None = None
        self._methods: dict[str, tuple[str, Callable[[dict[str, Any]], Any]]] = {}
        for attr in dir(self):
            if attr.startswith("_m_"):
                name = attr[3:]
                assert self.spec.canonical(name) == name, (
                    f"{name} is served but not described in botapi_methods.json"
                )
                self._methods[name.lower()] = (name, getattr(self, attr))
        if FakeBotAPI.created is not None:
            FakeBotAPI.created.append(self)

    # ---- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind host:port (port 0 = a free one) and serve."""
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        port = self._runner.addresses[0][1]
        self._url = f"http://{self.host}:{port}"
        _RUNNING[self._url] = self
        self._closing = False
        self._last_activity = asyncio.get_running_loop().time()

    async def stop(self) -> None:
        """Release pending long polls first, so that shutdown does not wait out their timeout."""
        self._closing = True
        self._wake()
        await self._stop_webhook_delivery()
        if self._url is not None:
            _RUNNING.pop(self._url, None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeBotAPI:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT"""
        if self._url is None:
            raise RuntimeError("FakeBotAPI is not started")
        return self._url

    @property
    def base_url(self) -> str:
        """What to give `ApplicationBuilder.base_url()`: PTB appends the token and method."""
        return f"{self.url}/bot"

    def builder(self) -> ApplicationBuilder:
        """An ApplicationBuilder with the token and base URLs of this fake already set."""
        from telegram.ext import ApplicationBuilder

        return (
            ApplicationBuilder()
            .token(self.token)
            .base_url(self.base_url)
            .base_file_url(f"{self.url}/file/bot")
        )

    @property
    def flood(self) -> FloodRules | None:
        return self._flood.rules if self._flood else None

    @flood.setter
    def flood(self, rules: FloodRules | None) -> None:
        """Setting the rules (or None) starts every budget afresh."""
        self._flood = _FloodControl(rules, self.clock) if rules else None

    # ---- HTTP --------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if self.down is not None and self.down.running(request.match_info["method"]):
            return self.down.answer(request, request.match_info["method"])
        if request.match_info["token"] != self.token:
            return web.json_response(Errors.unauthorized().payload(), status=401)
        name = request.match_info["method"]
        documented = self.spec.canonical(name)
        try:
            raw = await _read_params(request)
        except ValueError:
            return self._reply_error(name, {}, bad("can't parse request body"))
        except ConnectionError:  # the client gave up mid-request (PTB stopping): nobody to answer
            return web.Response(status=499)
        params = {key: self.spec.decode(documented, key, value) for key, value in raw.items()}
        entry = self._methods.get(name.lower())
        method = entry[0] if entry else (documented or name)
        self.calls.append((method, params))
        if entry is None:
            self.unknown_methods.append(name)
            log.error("fake Bot API: unknown method %s called", name)
            return self._reply_error(name, params, BotAPIError(404, "Not Found: method not found"))
        polling = method == "getUpdates"
        loop = asyncio.get_running_loop()
        if not polling:
            self._inflight += 1
        try:
            response = await self._answer(method, entry[1], params)
            delays = self._delays.get(method.lower())
            if delays:
                # fully processed, the answer is only held back: a client with a shorter read
                # timeout gives up (PTB: TimedOut) although the call took effect
                await asyncio.sleep(delays.popleft())
            return response
        finally:
            if not polling:
                self._inflight -= 1
                self._last_activity = loop.time()

    async def _answer(
        self, method: str, impl: Callable[[dict[str, Any]], Any], params: dict[str, Any]
    ) -> web.Response:
        try:
            problems = self.spec.check(method, params, bot_username=self.bot_username)
            for problem in problems:
                self._record_violation(problem)
            rejected = next((p for p in problems if p.reject), None)
            if rejected is not None:
                raise bad(rejected.description)
            known = self.spec.params(method)
            accepted = {k: v for k, v in params.items() if k in known}  # Telegram ignores the rest
            injected = self._injected.get(method.lower())
            if injected:
                raise injected.popleft()
            result = impl(accepted)
            if inspect.isawaitable(result):
                result = await result
        except BotAPIError as error:
            if error.violation:
                self.violations.append(f"{method}: {error.description} (answered 400)")
            return self._reply_error(method, params, error)
        except (KeyError, ValueError, TypeError) as error:
            self.internal_errors.append(f"{method}({params!r}): {error!r}")
            return self._reply_error(method, params, bad(f"invalid parameters: {error!r}"))
        except Exception as error:
            self.internal_errors.append(f"{method}({params!r}): {error!r}")
            log.exception("fake Bot API: %s failed", method)
            return self._reply_error(method, params, Errors.server_error())
        if isinstance(result, _Described):
            body = {"ok": True, "result": result.result, "description": result.description}
        else:
            body = {"ok": True, "result": result}
        return web.json_response(body)

    def _record_violation(self, problem: Problem) -> None:
        outcome = "answered 400" if problem.reject else "Telegram accepts it"
        line = f"{problem} ({outcome})"
        self.violations.append(line)
        log.warning("fake Bot API: %s", line)

    def _reply_error(self, method: str, params: dict[str, Any], error: BotAPIError) -> web.Response:
        self.errors.append(
            ApiError(method, params, error.error_code, error.description, error.retry_after,
                     dict(error.parameters))
        )
        if error.error_code == 429:
            self.flood_hits += 1
        return web.json_response(error.payload(), status=error.error_code)

    def fail_next(
        self,
        method: str,
        error: BotAPIError | int,
        description: str | None = None,
        retry_after: int | None = None,
        *,
        parameters: dict[str, Any] | None = None,
    ) -> None:
        """Make the next call of `method` fail (queued: call again to fail several), after its
        parameters were checked. Either a ready error, `fail_next("sendMessage",
        Errors.chat_migrated(-100123))`, or its parts: `fail_next("sendMessage", 429, "Too Many
        Requests: retry after 1", retry_after=1)`. `method` may be spelled sendMessage or
        send_message."""
        if isinstance(error, BotAPIError):
            injected = error
        else:
            assert description is not None, "fail_next(method, code, description)"
            injected = BotAPIError(error, description, retry_after, parameters)
        self._injected.setdefault(method.replace("_", "").lower(), deque()).append(injected)

    def outage(self, seconds: float, *, mode: Mode = "mixed",
               clock: Callable[[], float] | None = None,
               starting_with: str | None = None) -> Outage:
        """Telegram down for `seconds` of `clock` (this fake's by default): every call is
        answered 502 Bad Gateway or (`mode` "drop") by a dropped connection, "mixed" both in
        turn, and nothing is processed. `starting_with`: the outage begins with the next
        call of that method (which is already refused), not now."""
        self.down = Outage(seconds, clock or self.clock, mode,
                           starting_with.replace("_", "") if starting_with else None)
        return self.down

    def delay_next(self, method: str, seconds: float) -> None:
        """Process the next call of `method` normally (a message is sent and visible to the
        test at once) but hold its HTTP answer back `seconds`, as a slow network does. With a
        read timeout shorter than that, PTB raises TimedOut although the call took effect."""
        self._delays.setdefault(method.replace("_", "").lower(), deque()).append(seconds)

    # ---- updates -----------------------------------------------------------------------------

    def _wake(self) -> None:
        """Wake every long poll and the webhook sender. An Event swapped per wake-up (not a
        Condition) so that synchronous test actions such as user.block() can wake them too."""
        event, self._update_event = self._update_event, asyncio.Event()
        event.set()

    def _emit(self, kind: str, payload: dict[str, Any]) -> int:
        self._next_update_id += 1
        self._pending.append({"update_id": self._next_update_id, kind: payload})
        with contextlib.suppress(RuntimeError):
            self._last_activity = asyncio.get_running_loop().time()
        self._wake()
        return self._next_update_id

    def _deliverable(self, limit: int) -> list[dict[str, Any]]:
        self._pending = [u for u in self._pending if _update_kind(u) in self._allowed_updates]
        batch = self._pending[:limit]
        if batch:
            self._highest_fetched = max(self._highest_fetched, batch[-1]["update_id"])
        return batch

    def _set_allowed_updates(self, allowed: Any) -> None:
        if isinstance(allowed, list):
            self._allowed_updates = frozenset(allowed) if allowed else DEFAULT_ALLOWED_UPDATES

    async def _m_getUpdates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        if self.webhook_url:
            raise Errors.conflict_webhook()
        offset = int(p.get("offset") or 0)
        limit = min(100, max(1, int(p.get("limit") or 100)))
        timeout = max(0.0, float(p.get("timeout") or 0))
        self._set_allowed_updates(p.get("allowed_updates"))
        if offset > 0:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]
        elif offset < 0:
            self._pending = self._pending[offset:]
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake()  # an older poll still waiting is now superseded
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if self.webhook_url:  # setWebhook arrived while this poll waited
                raise Errors.conflict_webhook()
            batch = self._deliverable(limit)
            if batch or self._closing:
                if batch:
                    self._last_activity = loop.time()
                return batch
            if generation != self._poll_generation:
                raise Errors.conflict_polling()
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            self._parked_generation = generation
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._update_event.wait(), remaining)
            finally:
                if self._parked_generation == generation:
                    self._parked_generation = -1

    # ---- webhooks ----------------------------------------------------------------------------

    async def _m_setWebhook(self, p: dict[str, Any]) -> _Described:
        """As the server does it: a new URL at most once a second (429 retry after 1), an
        unchanged webhook is "already set" (and deliveries go on), otherwise pending updates
        are POSTed to the URL from now on. http:// URLs are accepted, as a self-hosted
        telegram-bot-api server accepts them (api.telegram.org requires HTTPS)."""
        url = str(p.get("url") or "")
        if url:
            stamp = self.clock()
            if stamp < self._next_set_webhook:
                raise Errors.flood(1)
            self._next_set_webhook = stamp + self.set_webhook_interval
            parsed = URL(url)
            if parsed.scheme not in ("http", "https") or not parsed.host:
                raise bad("invalid webhook URL specified")
        secret = str(p.get("secret_token") or "") or None
        self._set_allowed_updates(p.get("allowed_updates"))
        drop = bool(p.get("drop_pending_updates"))
        if drop:
            self._pending.clear()
        if (url or None) == self.webhook_url and secret == self.webhook_secret and not drop:
            already = "Webhook is already set" if url else "Webhook is already deleted"
            return _Described(True, already)
        self.webhook_url, self.webhook_secret = url or None, secret
        self._webhook_error = None
        await self._stop_webhook_delivery()
        if self.webhook_url and self.deliver_webhooks:
            self._webhook_task = asyncio.get_running_loop().create_task(
                self._deliver_webhooks(self.webhook_url, secret), name="fake-botapi-webhook"
            )
        self._wake()  # a long poll still waiting ends with 409
        return _Described(True, "Webhook was set" if url else "Webhook was deleted")

    async def _m_deleteWebhook(self, p: dict[str, Any]) -> _Described:
        if p.get("drop_pending_updates"):
            self._pending.clear()
        if self.webhook_url is None:
            return _Described(True, "Webhook is already deleted")
        self.webhook_url = self.webhook_secret = None
        await self._stop_webhook_delivery()
        return _Described(True, "Webhook was deleted")

    def _m_getWebhookInfo(self, p: dict[str, Any]) -> dict[str, Any]:
        info: dict[str, Any] = {
            "url": self.webhook_url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }
        if self.webhook_url:
            info["max_connections"] = 40
            if self._allowed_updates != DEFAULT_ALLOWED_UPDATES:
                info["allowed_updates"] = sorted(self._allowed_updates)
        if self._webhook_error is not None:
            info["last_error_date"], info["last_error_message"] = self._webhook_error
        return info

    async def _stop_webhook_delivery(self) -> None:
        task, self._webhook_task = self._webhook_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _deliver_webhooks(self, url: str, secret: str | None) -> None:
        """POST each pending update to the webhook, one at a time and in order. A 2xx answer
        confirms it; anything else (another status, a refused connection, a timeout) means the
        same update is sent again after a pause that doubles from WEBHOOK_RETRY_FIRST to
        WEBHOOK_RETRY_MAX seconds (or the answer's Retry-After), as Telegram does."""
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}
        backoff = WEBHOOK_RETRY_FIRST
        loop = asyncio.get_running_loop()
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            while not self._closing:
                event = self._update_event
                batch = self._deliverable(1)
                if not batch:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(event.wait(), 1.0)
                    continue
                update = batch[0]
                status: int | None = None
                retry_after: str | None = None
                problem = ""
                try:
                    async with http.post(url, json=update, headers=headers) as answer:
                        status = answer.status
                        retry_after = answer.headers.get("Retry-After")
                        problem = f"Wrong response from the webhook: {status} {answer.reason}"
                        await answer.read()
                except (aiohttp.ClientError, OSError, TimeoutError) as error:
                    problem = f"Connection failed: {error!r}"
                self.webhook_deliveries.append((update["update_id"], status))
                self._last_activity = loop.time()
                if status is not None and 200 <= status <= 299:
                    with contextlib.suppress(ValueError):
                        self._pending.remove(update)
                    backoff = WEBHOOK_RETRY_FIRST
                    continue
                self._webhook_error = (now(), problem)
                pause = backoff
                if retry_after and retry_after.isdigit():
                    pause = float(retry_after)
                backoff = min(WEBHOOK_RETRY_MAX, backoff * 2)
                await asyncio.sleep(pause)

    # ---- payload builders --------------------------------------------------------------------

    def _bot_dict(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def _user_dict(self, user_id: int) -> dict[str, Any]:
        if user_id == self.bot_id:
            return self._bot_dict()
        if user_id in SERVICE_USERS:
            return dict(SERVICE_USERS[user_id])
        return self._users[user_id].to_dict()

    def _ptb_user(self, user_id: int) -> telegram.User:
        return telegram.User(**self._user_dict(user_id))

    def _chat_dict(self, chat: Chat) -> dict[str, Any]:
        data: dict[str, Any] = {"id": chat.id, "type": chat.type}
        if chat.type == "private":
            user = self._users[chat.id]
            data["first_name"] = user.first_name
            if user.last_name:
                data["last_name"] = user.last_name
            if user.username:
                data["username"] = user.username
        else:
            data["title"] = chat.title
            if chat.username:
                data["username"] = chat.username
            if chat.is_forum:
                data["is_forum"] = True
        return data

    def _by_bot(self, msg: Message) -> bool:
        return msg.sender_id == self.bot_id or (
            msg.sender_id is None and msg.real_sender_id == self.bot_id
        )

    def _message_dict(self, msg: Message, *, nested: bool = False) -> dict[str, Any]:
        """The Bot API Message, with the server's forum rules: messages of a topic carry
        message_thread_id and is_topic_message, and without an explicit reply they are replies
        to the topic's forum_topic_created message."""
        chat = self._chats[msg.chat_id]
        data: dict[str, Any] = {
            "message_id": msg.message_id,
            "date": msg.date,
            "chat": self._chat_dict(chat),
        }
        if msg.sender_id is not None:
            data["from"] = self._user_dict(msg.sender_id)
        if msg.sender_chat_id is not None:
            data["sender_chat"] = self._chat_dict(self._chats[msg.sender_chat_id])
        if msg.thread_id is not None:
            data["message_thread_id"] = msg.thread_id
            if chat.is_forum:  # else a comment thread under a channel post
                data["is_topic_message"] = True
        if msg.text is not None:
            data["text"] = msg.text
        if msg.entities:
            data["entities"] = copy.deepcopy(msg.entities)
        if msg.edit_date is not None:
            data["edit_date"] = msg.edit_date
        if msg.reply_markup:
            data["reply_markup"] = copy.deepcopy(msg.reply_markup)
        reply_to = msg.reply_to_message_id
        if reply_to is None and msg.thread_id is not None and msg.thread_id < msg.message_id:
            reply_to = msg.thread_id
        if reply_to is not None and not nested:
            replied = chat.messages.get(reply_to)
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = self._message_dict(replied, nested=True)
        if msg.options.get("protect_content"):
            data["has_protected_content"] = True
        if msg.options.get("link_preview_options"):
            data["link_preview_options"] = copy.deepcopy(msg.options["link_preview_options"])
        data.update(copy.deepcopy(msg.service))
        return data

    def _view(self, msg: Message, event: str | None = None) -> MessageView:
        data = self._message_dict(msg)
        data.setdefault("text", "")
        data.update(
            chat_id=msg.chat_id,
            buttons=copy.deepcopy((msg.reply_markup or {}).get("inline_keyboard", [])),
            edited=msg.edit_date is not None,
            from_bot=self._by_bot(msg),
            sender_id=msg.sender_id,
            deleted=msg.deleted,
            parse_mode=msg.parse_mode,
            source_text=msg.source_text if msg.source_text is not None else msg.text,
            reply_to_message_id=msg.reply_to_message_id,
            thread_id=msg.thread_id,
        )
        if event is not None:
            data["event"] = event
        return MessageView(data)

    def _member_dict(self, chat: Chat, user_id: int) -> dict[str, Any]:
        member = chat.members.get(user_id) or Member("left", is_member=False)
        user = self._ptb_user(user_id)
        if member.status == "creator":
            return ptb_dict(telegram.ChatMemberOwner, user=user, is_anonymous=False)
        if member.status == "administrator":
            rights = {name: bool(member.rights.get(name, False)) for name in ADMIN_RIGHT_FIELDS}
            return ptb_dict(
                telegram.ChatMemberAdministrator,
                user=user,
                can_be_edited=user_id == self.bot_id,
                is_anonymous=False,
                custom_title=member.custom_title,
                **rights,
            )
        if member.status == "restricted":
            permissions = member.permissions or {}
            flags = {name: bool(permissions.get(name, False)) for name in PERMISSION_FIELDS}
            return ptb_dict(
                telegram.ChatMemberRestricted,
                user=user,
                is_member=member.is_member,
                until_date=epoch(member.until_date),
                **flags,
            )
        if member.status == "kicked":
            until = epoch(member.until_date)
            return ptb_dict(telegram.ChatMemberBanned, user=user, until_date=until)
        if member.status == "member":
            return ptb_dict(telegram.ChatMemberMember, user=user)
        return ptb_dict(telegram.ChatMemberLeft, user=user)

    # ---- chats and members -------------------------------------------------------------------

    def _private_chat(self, user: FakeUser) -> Chat:
        chat = self._chats.get(user.id)
        if chat is None:
            chat = Chat(
                id=user.id,
                type="private",
                members={user.id: Member("member"), self.bot_id: Member("member")},
            )
            self._chats[user.id] = chat
        return chat

    def _owner_of(self, chat: Chat) -> int:
        return next(
            (uid for uid, m in chat.members.items() if m.status == "creator"), self.bot_id
        )

    def _find_chat(self, raw: Any) -> Chat | None:
        if isinstance(raw, str) and raw.startswith("@"):
            wanted = raw[1:].lower()
            return next(
                (
                    c for c in self._chats.values()
                    if c.type != "private" and (c.username or "").lower() == wanted
                ),
                None,
            )
        try:
            chat_id = int(raw)
        except (TypeError, ValueError):
            return None
        chat = self._chats.get(chat_id)
        if chat is None and chat_id in self._users:
            chat = self._private_chat(self._users[chat_id])
        return chat

    def _resolve_chat(self, p: dict[str, Any], method: str, *, access: str | None = None) -> Chat:
        """The chat a call addresses, checked as the telegram-bot-api server checks it before
        the method runs (check_chat_access), by the method's access level in the spec:
        private chats refuse writes and edits to users who blocked the bot or never started
        it; a basic group answers writes, edits and member-list reads with "upgraded to a
        supergroup" once migrated, and with 403 once the bot was kicked or removed (reads such
        as getChat still work there); a supergroup or channel the bot was kicked from refuses
        everything, one it is not in refuses everything unless it is public (then only writes
        and edits)."""
        access = access or self.spec.access(method) or "read"
        raw = p.get("chat_id")
        if raw is None or raw == "":
            raise bad("chat_id is empty")
        chat = self._find_chat(raw)
        if chat is None:
            raise Errors.chat_not_found()
        if chat.type == "private":
            user = self._users[chat.id]
            if access in ("write", "edit") and user.blocked:
                raise Errors.blocked_by_user()
            if access in ("write", "edit") and not user.started:
                raise Errors.cant_initiate()
            return chat
        bot = chat.members.get(self.bot_id) or Member("left", is_member=False)
        if chat.type == "group":
            if chat.migrated_to is not None and access != "read":
                raise Errors.chat_migrated(chat.migrated_to)
            if access != "read" and bot.status == "kicked":
                raise Errors.bot_kicked("group")
            if access != "read" and bot.status == "left":
                raise Errors.not_a_member("group")
            return chat
        kind = "supergroup" if chat.type == "supergroup" else "channel"
        if bot.status == "kicked":
            raise Errors.bot_kicked(kind)
        if bot.status == "left" and (not chat.username or access in ("write", "edit")):
            raise Errors.not_a_member(kind)
        return chat

    def _chat_of(self, ref: Any) -> Chat | None:
        if isinstance(ref, FakeUser):
            return self._chats.get(ref.id)
        if hasattr(ref, "_chat"):
            return ref._chat
        return self._chats.get(int(ref))

    def _bot_in(self, chat: Chat) -> bool:
        member = chat.members.get(self.bot_id)
        return member is not None and member.status not in ("left", "kicked")

    def _bot_right(self, chat: Chat, right: str) -> bool:
        bot = chat.members.get(self.bot_id)
        if bot is None:
            return False
        if bot.status == "creator":
            return True
        return bot.status == "administrator" and bool(bot.rights.get(right))

    def _is_admin(self, chat: Chat, user_id: int) -> bool:
        member = chat.members.get(user_id)
        return member is not None and member.status in ("creator", "administrator")

    def _may(self, chat: Chat, member: Member | None, flag: str) -> bool:
        """Whether a member may do `flag` (a ChatPermissions flag): admins always, plain
        members by the chat's defaults, restricted ones by both their own permissions and the
        defaults."""
        if member is None or member.status in ("left", "kicked"):
            return False
        if member.status in ("creator", "administrator"):
            return True
        allowed = chat.permissions.get(flag, True)
        if member.status == "restricted":
            return member.is_member and allowed and bool((member.permissions or {}).get(flag))
        return allowed

    def _can_post(self, chat: Chat, user_id: int) -> bool:
        if chat.migrated_to is not None:
            return False
        return self._may(chat, chat.members.get(user_id), "can_send_messages")

    def _check_can_send(self, chat: Chat, flag: str = "can_send_messages",
                        what: str = "text messages") -> None:
        if chat.type in ("group", "supergroup"):
            if not self._may(chat, chat.members.get(self.bot_id), flag):
                raise Errors.no_rights_to_send(what)
        elif chat.type == "channel" and not self._bot_right(chat, "can_post_messages"):
            raise bad("need administrator rights in the channel chat")

    def _target_user(self, p: dict[str, Any]) -> int:
        user_id = int(p.get("user_id") or 0)
        if user_id <= 0:
            raise bad("invalid user_id specified")
        if user_id not in self._users and user_id != self.bot_id:
            raise bad("user not found")
        return user_id

    def _set_bot_member(self, chat: Chat, member: Member) -> None:
        old = chat.members.get(self.bot_id, Member("left")).status
        chat.members[self.bot_id] = member
        self._my_chat_member_update(chat, self._owner_of(chat), old)

    # ---- messages ----------------------------------------------------------------------------

    def _new_message(
        self, chat: Chat, sender_id: int | None, text: str | None, **fields: Any
    ) -> Message:
        msg = Message(
            chat_id=chat.id,
            message_id=chat.next_message_id,
            date=now(),
            sender_id=sender_id,
            text=text,
            entities=fields.pop("entities", []),
            **fields,
        )
        chat.next_message_id += 1
        chat.messages[msg.message_id] = msg
        chat.history.append(self._view(msg, "sent"))
        return msg

    def _find_message(self, chat: Chat, p: dict[str, Any], missing: str) -> Message:
        raw = p.get("message_id")
        if raw is None and p.get("inline_message_id") is not None:
            raise bad("MESSAGE_ID_INVALID")
        if raw is None:
            raise bad("message identifier is not specified")
        msg = chat.messages.get(int(raw))
        if msg is None or msg.deleted:
            raise bad(missing)
        return msg

    def _render(
        self, p: dict[str, Any], key: str = "text", entities_key: str = "entities",
        limit: int = MAX_TEXT_LENGTH, required: bool = True,
    ) -> tuple[str, list[dict[str, Any]], str, str | None]:
        """(visible text, entities, source, parse_mode) of a text or caption parameter."""
        source = p.get(key)
        source = "" if source is None else str(source)
        mode = p.get("parse_mode") or None
        entities = p.get(entities_key) if isinstance(p.get(entities_key), list) else None
        if required and not source:
            raise bad("message text is empty")
        text, parsed = parse_formatted(source, mode, entities)
        if required and not text.strip():
            raise bad("message text is empty")
        if len(text) > limit:
            raise bad("message is too long" if key == "text" else "message caption is too long")
        return text, parsed, source, mode

    def _reply_target(self, chat: Chat, p: dict[str, Any]) -> Message | None:
        parameters = p.get("reply_parameters")
        if isinstance(parameters, dict) and parameters.get("message_id") is not None:
            message_id = int(parameters["message_id"])
            allow = bool(parameters.get("allow_sending_without_reply"))
        elif p.get("reply_to_message_id") is not None:
            message_id = int(p["reply_to_message_id"])
            allow = bool(p.get("allow_sending_without_reply"))
        else:
            return None
        replied = chat.messages.get(message_id)
        if replied is None or replied.deleted:
            if allow:
                return None
            raise Errors.reply_not_found()
        return replied

    def _spend_flood(self, chat: Chat) -> None:
        if self._flood is not None:
            self._flood.check(chat.id, chat.type != "private")

    def _bot_sender(self, chat: Chat) -> dict[str, Any]:
        """Who a bot's message is from: the bot, or in a channel the channel itself."""
        if chat.type == "channel":
            return {"sender_id": None, "sender_chat_id": chat.id, "real_sender_id": self.bot_id}
        return {"sender_id": self.bot_id}

    def _send_options(self, p: dict[str, Any]) -> dict[str, Any]:
        return {
            key: p[key]
            for key in (
                "disable_notification", "protect_content", "link_preview_options",
                "disable_web_page_preview",
            )
            if p.get(key) is not None
        }

    def _m_getMe(self, p: dict[str, Any]) -> dict[str, Any]:
        return {
            **self._bot_dict(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy,
            "supports_inline_queries": False,
        }

    def _m_sendMessage(self, p: dict[str, Any]) -> dict[str, Any]:
        text, entities, source, mode = self._render(p)  # the server checks the text first
        chat = self._resolve_chat(p, "sendMessage")
        markup = inline_keyboard(p.get("reply_markup"))
        replied = self._reply_target(chat, p)
        thread = self._thread_for_send(chat, p, replied)
        self._check_can_send(chat)
        self._spend_flood(chat)
        options = self._send_options(p)
        if p.get("reply_markup") is not None and markup is None:
            options["reply_markup_sent"] = p["reply_markup"]
        msg = self._new_message(
            chat,
            text=text,
            entities=entities,
            source_text=source,
            parse_mode=mode,
            reply_markup=markup,
            reply_to_message_id=replied.message_id if replied else None,
            thread_id=thread,
            options=options,
            **self._bot_sender(chat),
        )
        return self._message_dict(msg)

    def _m_sendPhoto(self, p: dict[str, Any]) -> dict[str, Any]:
        photo = p.get("photo")
        if photo is None or photo == "":
            raise bad("there is no photo in the request")
        upload = uploaded_photo(photo)  # an uploaded file is checked as Telegram does
        caption, entities, source, mode = self._render(
            p, "caption", "caption_entities", limit=1024, required=False
        )
        chat = self._resolve_chat(p, "sendPhoto")
        markup = inline_keyboard(p.get("reply_markup"))
        replied = self._reply_target(chat, p)
        thread = self._thread_for_send(chat, p, replied)
        self._check_can_send(chat, "can_send_photos", "photos")
        self._spend_flood(chat)
        serial = next(self._file_ids)
        file_id = photo if isinstance(photo, str) and "://" not in photo else f"AgACfake{serial}"
        sizes = [
            {"file_id": f"{file_id}-{side}", "file_unique_id": f"AQADfake{serial}{side}",
             "width": side, "height": side, "file_size": side * 40}
            for side in (90, 320, 800)
        ]
        service: dict[str, Any] = {"photo": sizes}
        if caption:
            service["caption"] = caption
            if entities:
                service["caption_entities"] = entities
        if p.get("has_spoiler"):
            service["has_media_spoiler"] = True
        msg = self._new_message(
            chat,
            text=None,
            source_text=source or None,
            parse_mode=mode,
            reply_markup=markup,
            reply_to_message_id=replied.message_id if replied else None,
            thread_id=thread,
            service=service,
            options=self._send_options(p),
            **self._bot_sender(chat),
        )
        if upload is not None:
            self.uploads.append(Upload(chat.id, msg.message_id, *upload))
        return self._message_dict(msg)

    def _editable(self, chat: Chat, p: dict[str, Any]) -> Message:
        msg = self._find_message(chat, p, "message to edit not found")
        if not self._by_bot(msg):
            raise Errors.cant_be_edited()
        return msg

    def _m_editMessageText(self, p: dict[str, Any]) -> dict[str, Any]:
        text, entities, source, mode = self._render(p)
        chat = self._resolve_chat(p, "editMessageText")
        msg = self._editable(chat, p)
        if msg.text is None:
            raise bad("there is no text in the message to edit")
        markup = inline_keyboard(p.get("reply_markup"))
        if text == msg.text and entities == msg.entities and markup == msg.reply_markup:
            raise bad(NOT_MODIFIED)
        self._spend_flood(chat)
        msg.text, msg.entities, msg.source_text, msg.parse_mode = text, entities, source, mode
        msg.reply_markup = markup  # no reply_markup in the edit removes the keyboard
        msg.edit_date = now()
        chat.history.append(self._view(msg, "edited"))
        return self._message_dict(msg)

    def _m_editMessageReplyMarkup(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._resolve_chat(p, "editMessageReplyMarkup")
        msg = self._editable(chat, p)
        markup = inline_keyboard(p.get("reply_markup"))
        if markup == msg.reply_markup:
            raise bad(NOT_MODIFIED)
        self._spend_flood(chat)
        msg.reply_markup = markup
        msg.edit_date = now()
        chat.history.append(self._view(msg, "edited"))
        return self._message_dict(msg)

    def _delete(self, chat: Chat, message_id: int) -> bool:
        msg = chat.messages.get(message_id)
        if msg is None or msg.deleted:
            return False
        if (
            chat.type != "private"
            and not self._by_bot(msg)
            and not self._bot_right(chat, "can_delete_messages")
        ):
            raise Errors.cant_be_deleted()
        if "forum_topic_created" in msg.service:
            raise Errors.cant_be_deleted()  # Bot API: such service messages can't be deleted
        msg.deleted = True
        return True

    def _m_deleteMessage(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, "deleteMessage")
        if not self._delete(chat, int(p.get("message_id") or 0)):
            raise Errors.delete_not_found()
        return True

    def _m_deleteMessages(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, "deleteMessages")
        deleted = [self._delete(chat, int(mid)) for mid in p.get("message_ids") or []]
        if not any(deleted):
            raise Errors.delete_not_found()
        return True

    def _m_answerCallbackQuery(self, p: dict[str, Any]) -> bool:
        query = self._queries.get(str(p.get("callback_query_id") or ""))
        expired = (
            query is not None
            and self.query_timeout is not None
            and self.clock() - query.created > self.query_timeout
        )
        if query is None or query.answer is not None or expired:
            raise Errors.query_too_old()
        text = p.get("text")
        query.answer = {
            "text": None if text is None else str(text),
            "show_alert": bool(p.get("show_alert")),
            "url": p.get("url"),
            "cache_time": p.get("cache_time"),
        }
        return True

    def _m_sendChatAction(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, "sendChatAction")
        self._thread_for_send(chat, p, None)
        self.chat_actions.append((chat.id, str(p.get("action"))))
        return True

    # ---- chats -------------------------------------------------------------------------------

    def _m_getChat(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._resolve_chat(p, "getChat")
        extra: dict[str, Any] = {}
        if chat.type == "private":
            user = self._users[chat.id]
            extra.update(
                first_name=user.first_name, last_name=user.last_name, username=user.username
            )
        else:
            extra.update(
                title=chat.title, username=chat.username, linked_chat_id=chat.linked_chat_id
            )
            if chat.type != "channel":
                flags = {name: chat.permissions.get(name, True) for name in PERMISSION_FIELDS}
                extra["permissions"] = telegram.ChatPermissions(**flags)
            extra["invite_link"] = chat.primary_link
            if chat.is_forum:
                extra["is_forum"] = True
            if chat.pinned and chat.pinned[-1] in chat.messages:
                pinned = self._message_dict(chat.messages[chat.pinned[-1]])
                extra["pinned_message"] = telegram.Message.de_json(pinned, None)
        return ptb_dict(
            telegram.ChatFullInfo,
            id=chat.id,
            type=chat.type,
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types=telegram.AcceptedGiftTypes(
                **{
                    name: False
                    for name, param in inspect.signature(
                        telegram.AcceptedGiftTypes.__init__
                    ).parameters.items()
                    if param.default is inspect.Parameter.empty and name != "self"
                }
            ),
            **{k: v for k, v in extra.items() if v is not None},
        )

    def _m_getChatMember(self, p: dict[str, Any]) -> dict[str, Any]:
        user_id = self._target_user(p)
        access = "read" if user_id == self.bot_id else "read_members"
        chat = self._resolve_chat(p, "getChatMember", access=access)
        return self._member_dict(chat, user_id)

    def _m_getChatMemberCount(self, p: dict[str, Any]) -> int:
        chat = self._resolve_chat(p, "getChatMemberCount")
        return sum(
            1
            for m in chat.members.values()
            if m.status in ("creator", "administrator", "member")
            or (m.status == "restricted" and m.is_member)
        )

    def _m_getChatAdministrators(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        chat = self._resolve_chat(p, "getChatAdministrators")
        if chat.type == "private":
            raise bad("there are no administrators in the private chat")
        return [
            self._member_dict(chat, uid)
            for uid, m in chat.members.items()
            if m.status in ("creator", "administrator")
        ]

    def _group_admin_check(self, p: dict[str, Any], method: str, right: str, error: str) -> Chat:
        chat = self._resolve_chat(p, method)
        if chat.type == "private":
            raise bad("method is available for supergroup and channel chats only")
        if not self._bot_right(chat, right):
            raise bad(error)
        return chat

    def _m_restrictChatMember(self, p: dict[str, Any]) -> bool:
        """The member's permissions are stored as the server computes them (see
        `chat_permissions`); a member left with every permission is a plain member again
        (TDLib: DialogParticipantStatus::Restricted with all rights is Member)."""
        chat = self._resolve_chat(p, "restrictChatMember")
        if chat.type != "supergroup":
            raise bad("method is available only for supergroups")
        if not self._bot_right(chat, "can_restrict_members"):
            raise bad("not enough rights to restrict/unrestrict chat member")
        user_id = self._target_user(p)
        if user_id == self.bot_id:
            raise bad("can't restrict self")
        old = chat.members.get(user_id) or Member("left", is_member=False)
        if old.status == "creator":
            raise bad("can't remove chat owner")
        if old.status == "administrator":
            raise bad("user is an administrator of the chat")
        given = p.get("permissions")
        if not isinstance(given, dict):
            raise bad("can't parse permissions JSON object")
        independent = bool(p.get("use_independent_chat_permissions"))
        permissions = chat_permissions(given, independent=independent)
        is_member = old.status in ("member", "restricted") and old.is_member
        until = int(p.get("until_date") or 0)
        if all(permissions.values()):
            new = Member("member") if is_member else Member("left", is_member=False)
        else:
            new = Member(
                "restricted", permissions=permissions, is_member=is_member, until_date=until
            )
        chat.members[user_id] = new
        self._chat_member_update(chat, user_id, self.bot_id, old.status)
        return True

    def _m_setChatPermissions(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, "setChatPermissions")
        if chat.type not in ("group", "supergroup"):
            raise bad("method is available only for groups and supergroups")
        if not self._bot_right(chat, "can_restrict_members"):
            raise bad("not enough rights to change chat permissions")
        given = p.get("permissions")
        if not isinstance(given, dict):
            raise bad("can't parse permissions JSON object")
        independent = bool(p.get("use_independent_chat_permissions"))
        chat.permissions = chat_permissions(given, independent=independent)
        return True

    def _m_banChatMember(self, p: dict[str, Any]) -> bool:
        chat = self._group_admin_check(
            p, "banChatMember", "can_restrict_members",
            "not enough rights to restrict/unrestrict chat member",
        )
        user_id = self._target_user(p)
        old = chat.members.get(user_id) or Member("left", is_member=False)
        if old.status == "creator":
            raise bad("can't remove chat owner")
        if old.status == "administrator":
            raise bad("user is an administrator of the chat")
        until = int(p.get("until_date") or 0)
        chat.members[user_id] = Member("kicked", is_member=False, until_date=until)
        self._chat_member_update(chat, user_id, self.bot_id, old.status)
        return True

    def _m_unbanChatMember(self, p: dict[str, Any]) -> bool:
        chat = self._group_admin_check(
            p, "unbanChatMember", "can_restrict_members",
            "not enough rights to restrict/unrestrict chat member",
        )
        user_id = self._target_user(p)
        old = chat.members.get(user_id) or Member("left", is_member=False)
        # Unbanning a current member would kick them; only_if_banned=False on a member is a
        # no-op here (Telegram removes them), because the game never wants that.
        if old.status in ("kicked", "left", "restricted") and (
            old.status == "kicked" or not p.get("only_if_banned")
        ):
            chat.members[user_id] = Member("left", is_member=False)
            self._chat_member_update(chat, user_id, self.bot_id, old.status)
        return True

    def _new_invite_link(self, chat: Chat) -> str:
        return f"https://t.me/+fake{abs(chat.id)}x{next(self._link_ids)}"

    def _m_exportChatInviteLink(self, p: dict[str, Any]) -> str:
        chat = self._group_admin_check(
            p, "exportChatInviteLink", "can_invite_users",
            "not enough rights to manage chat invite link",
        )
        chat.primary_link = self._new_invite_link(chat)
        return chat.primary_link

    def _m_createChatInviteLink(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._group_admin_check(
            p, "createChatInviteLink", "can_invite_users",
            "not enough rights to manage chat invite link",
        )
        expire = p.get("expire_date")
        link = ptb_dict(
            telegram.ChatInviteLink,
            invite_link=self._new_invite_link(chat),
            creator=self._ptb_user(self.bot_id),
            creates_join_request=bool(p.get("creates_join_request")),
            is_primary=False,
            is_revoked=False,
            name=p.get("name"),
            expire_date=epoch(int(expire)) if expire else None,
            member_limit=p.get("member_limit"),
        )
        chat.invite_links.append(link)
        return link

    def _pin_rights(self, chat: Chat) -> None:
        if chat.type != "private" and not self._bot_right(chat, "can_pin_messages"):
            raise bad("not enough rights to manage pinned messages in the chat")

    def _m_pinChatMessage(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, "pinChatMessage")
        self._pin_rights(chat)
        msg = self._find_message(chat, p, "message to pin not found")
        if msg.message_id in chat.pinned:
            chat.pinned.remove(msg.message_id)
        chat.pinned.append(msg.message_id)
        return True

    def _m_unpinChatMessage(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, "unpinChatMessage")
        self._pin_rights(chat)
        message_id = p.get("message_id")
        if message_id is None:
            if chat.pinned:
                chat.pinned.pop()
        elif int(message_id) in chat.pinned:
            chat.pinned.remove(int(message_id))
        return True

    def _m_unpinAllChatMessages(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, "unpinAllChatMessages")
        self._pin_rights(chat)
        chat.pinned.clear()
        return True

    def _m_leaveChat(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, "leaveChat")
        if chat.type == "private":
            raise bad("chat member status can't be changed in private chats")
        if self._bot_in(chat):
            self._set_bot_member(chat, Member("left", is_member=False))
        return True

    # ---- bot profile -------------------------------------------------------------------------

    @staticmethod
    def _scope_key(p: dict[str, Any]) -> tuple[str, str]:
        scope = p.get("scope") or {"type": "default"}
        if isinstance(scope, str):
            scope = json.loads(scope)
        return json.dumps(scope, sort_keys=True), str(p.get("language_code") or "")

    def _m_setMyCommands(self, p: dict[str, Any]) -> bool:
        """Limits (at most 100 commands, names of 1-32 [a-z0-9_], descriptions of 1-256
        characters) are checked from the spec before this runs."""
        stored = [
            {"command": str(c["command"]), "description": str(c["description"])}
            for c in p.get("commands") or []
        ]
        key = self._scope_key(p)
        if stored:
            self._commands[key] = stored
        else:
            self._commands.pop(key, None)
        return True

    def _m_getMyCommands(self, p: dict[str, Any]) -> list[dict[str, str]]:
        return copy.deepcopy(self._commands.get(self._scope_key(p), []))

    def _m_deleteMyCommands(self, p: dict[str, Any]) -> bool:
        self._commands.pop(self._scope_key(p), None)
        return True

    def _profile_text(self, field_name: str, p: dict[str, Any], value: str | None = None) -> None:
        key = (field_name, str(p.get("language_code") or ""))
        if value:
            self._bot_texts[key] = value
        else:
            self._bot_texts.pop(key, None)

    def _m_setMyName(self, p: dict[str, Any]) -> bool:
        self._profile_text("name", p, p.get("name"))
        return True

    def _m_getMyName(self, p: dict[str, Any]) -> dict[str, str]:
        key = ("name", str(p.get("language_code") or ""))
        return {"name": self._bot_texts.get(key, self.bot_name)}

    def _m_setMyDescription(self, p: dict[str, Any]) -> bool:
        self._profile_text("description", p, p.get("description"))
        return True

    def _m_getMyDescription(self, p: dict[str, Any]) -> dict[str, str]:
        key = ("description", str(p.get("language_code") or ""))
        return {"description": self._bot_texts.get(key, "")}

    def _m_setMyShortDescription(self, p: dict[str, Any]) -> bool:
        self._profile_text("short_description", p, p.get("short_description"))
        return True

    def _m_getMyShortDescription(self, p: dict[str, Any]) -> dict[str, str]:
        key = ("short_description", str(p.get("language_code") or ""))
        return {"short_description": self._bot_texts.get(key, "")}

    # ---- test side: creating the world -------------------------------------------------------

    def user(
        self,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "en",
        *,
        last_name: str | None = None,
    ) -> FakeUser:
        """A new Telegram user (not yet talking to the bot)."""
        user = FakeUser(self, next(self._user_ids), first_name, username, language_code, last_name)
        self._users[user.id] = user
        return user

    def group(
        self,
        title: str,
        members: Iterable[FakeUser] = (),
        *,
        bot_admin: bool = False,
        supergroup: bool = False,
        forum: bool = False,
        owner: FakeUser | None = None,
        username: str | None = None,
        bot_rights: dict[str, bool] | None = None,
        announce: bool = False,
    ) -> FakeGroup:
        """A group that already exists with the bot in it.

        The default is what a new group on Telegram is: a basic group (a small negative id,
        without -100) in which the bot is a plain member. `supergroup=True` makes a supergroup
        (-100... id); `forum=True` a forum supergroup with topics; `bot_admin=True` makes the
        bot an administrator with the usual rights (overridden by `bot_rights`). `members`
        join as plain members. The creator is `owner` (who need not be in `members`), or a
        user made up for the purpose, so listed members have no admin rights unless given them
        with `make_admin`. `announce` also emits the my_chat_member update for the bot being
        added."""
        supergroup = supergroup or forum  # Telegram's forums are supergroups
        if supergroup:
            chat_id = -int(f"100{1_000_000_000 + next(self._supergroup_ids)}")
        else:
            chat_id = -next(self._basic_group_ids)
        creator = owner or self.user(f"{title} owner")
        chat = Chat(
            id=chat_id,
            type="supergroup" if supergroup else "group",
            title=title,
            username=username,
            permissions={name: True for name in PERMISSION_FIELDS},
            is_forum=forum,
        )
        chat.members[creator.id] = Member("creator")
        for member in members:
            if member.id not in chat.members:
                chat.members[member.id] = Member("member")
        if bot_admin:
            chat.members[self.bot_id] = Member(
                "administrator", rights={**DEFAULT_ADMIN_RIGHTS, **(bot_rights or {})}
            )
        else:
            chat.members[self.bot_id] = Member("member")
        self._chats[chat_id] = chat
        if forum:
            # message 1 opened the chat; it is also the root of General, whose thread id (1)
            # the Bot API never shows, so real topics start at 2 and later
            self._new_message(chat, creator.id, None, service={"supergroup_chat_created": True})
        if announce:
            self._my_chat_member_update(chat, creator.id, "left")
        return FakeGroup(self, chat)

    # ---- test side: user actions (called through FakeUser) -----------------------------------

    def _bot_sees(self, chat: Chat, text: str, reply_to: Message | None) -> bool:
        """Privacy mode: in groups the bot gets commands (not addressed to another bot),
        replies to its own messages and @mentions of it, unless it is an administrator.
        Service messages always reach it (`_service_message`)."""
        if chat.type == "private":
            return True
        if not self._bot_in(chat):
            return False
        bot = chat.members[self.bot_id]
        if not self.privacy or bot.status in ("administrator", "creator"):
            return True
        me = self.bot_username.lower()
        command = COMMAND_RE.match(text)
        if command and (command.group(2) is None or command.group(2).lower() == me):
            return True
        if reply_to is not None and self._by_bot(reply_to):
            return True
        return any(m.group(1).lower() == me for m in MENTION_RE.finditer(text))

    def _user_message(
        self,
        user: FakeUser,
        where: FakeGroup | FakeTopic | int | None,
        text: str,
        reply_to: Any,
        anonymous: bool,
        as_channel: FakeChannel | None,
        picked: Sequence[tuple[str, FakeUser]] = (),
    ) -> MessageView:
        assert text, "a Telegram client does not send empty messages"
        assert len(text) <= MAX_TEXT_LENGTH, "a Telegram client splits messages over 4096 chars"
        topic = where if isinstance(where, FakeTopic) else None
        if where is None or where is user or where == user.id:
            assert not user.blocked, f"{user} has blocked the bot; call start() or unblock() first"
            assert not anonymous and as_channel is None, "private chats have no such senders"
            chat = self._private_chat(user)
            user.started = True
        else:
            found = self._chat_of(where)
            assert found is not None and found.type not in ("private", "channel"), (
                f"no such group: {where!r}"
            )
            chat = found
            assert chat.migrated_to is None, (
                f"{chat.title!r} was upgraded to the supergroup {chat.migrated_to}; post there"
            )
            assert self._can_post(chat, user.id), (
                f"{user} cannot post in {chat.title!r} (status "
                f"{(chat.members.get(user.id) or Member('left')).status}, "
                f"permissions {(chat.members.get(user.id) or Member('left')).permissions})"
            )
            if anonymous:
                assert self._is_admin(chat, user.id), (
                    f"{user} is not an admin of {chat.title!r}, so cannot post anonymously"
                )
                assert chat.type == "supergroup", (
                    "admins can remain anonymous in supergroups only (Telegram upgrades a "
                    "basic group when an admin turns it on)"
                )
        replied: Message | None = None
        if reply_to is not None:
            if isinstance(reply_to, int):
                reply_chat_id, reply_id = chat.id, reply_to
            else:
                reply_chat_id, reply_id = locate(reply_to)
            assert reply_chat_id == chat.id, "a reply must be in the same chat as its message"
            replied = chat.messages.get(reply_id)
            assert replied is not None and not replied.deleted, f"no message {reply_id} to reply to"
        thread_id = self._user_thread(chat, user, topic, replied)
        sender: int = user.id
        extra: dict[str, Any] = {}
        sender_chat_id: int | None = None
        if anonymous:
            sender, sender_chat_id = GROUP_ANONYMOUS_BOT_ID, chat.id
            title = chat.members[user.id].custom_title
            if title:
                extra["author_signature"] = title
        elif as_channel is not None:
            sender = self._as_channel_sender(chat, user, as_channel)
            sender_chat_id = as_channel.id
        msg = self._new_message(
            chat,
            sender,
            text,
            entities=sorted(detect_entities(text) + self._picked_entities(text, picked),
                            key=lambda e: e["offset"]),
            reply_to_message_id=replied.message_id if replied else None,
            sender_chat_id=sender_chat_id,
            real_sender_id=user.id,
            thread_id=thread_id,
            service=extra,
        )
        if self._bot_sees(chat, text, replied):
            self._emit("message", self._message_dict(msg))
        return self._view(msg)

    @staticmethod
    def _picked_entities(text: str, picked: Sequence[tuple[str, FakeUser]]) -> list[dict[str, Any]]:
        """The text_mention entities a client attaches for people picked from the @-list
        who have no username: over the words it inserted, each after the one before."""
        found: list[dict[str, Any]] = []
        start = 0
        for words, user in picked:
            assert not user.username, f"{user} has a username: a client inserts @{user.username}"
            at = text.find(words, start)
            assert at >= 0, f"{words!r} is not in the text after position {start}"
            found.append({"type": "text_mention", "offset": u16len(text[:at]),
                          "length": u16len(words), "user": user.to_dict()})
            start = at + len(words)
        return found

    def _user_thread(
        self, chat: Chat, user: FakeUser, topic: FakeTopic | None, replied: Message | None
    ) -> int | None:
        """The topic a client posts in: the one given, else the replied-to message's, else
        General; clients refuse closed topics to members without admin rights. In a channel's
        discussion group, replies to a post's automatic forward form its comment thread (its
        message_thread_id is the forward's id, without is_topic_message)."""
        if not chat.is_forum:
            assert topic is None, f"{chat.title!r} has no topics"
            if replied is None or chat.linked_chat_id is None:
                return None
            if replied.thread_id is not None:
                return replied.thread_id
            return replied.message_id if replied.service.get("is_automatic_forward") else None
        if topic is not None:
            assert topic._chat is chat, f"{topic!r} is not in {chat.title!r}"
            assert not topic.deleted, f"{topic!r} was deleted"
            thread_id = topic.thread_id
            if replied is not None:
                assert replied.thread_id == thread_id, "a reply stays in its message's topic"
        else:
            thread_id = replied.thread_id if replied is not None else None
        closed = chat.topics[thread_id].closed if thread_id is not None else chat.general_closed
        assert not closed or self._is_admin(chat, user.id), (
            f"the topic is closed; a client lets only admins post in it ({user} is not one)"
        )
        return thread_id

    def _user_edit(self, user: FakeUser, message: Any, new_text: str) -> MessageView:
        chat_id, message_id = locate(message)
        chat = self._chats.get(chat_id)
        assert chat is not None, f"no chat {chat_id}"
        msg = chat.messages.get(message_id)
        assert msg is not None and not msg.deleted, f"no message {message_id} in chat {chat_id}"
        assert msg.real_sender_id == user.id, f"{user} can only edit their own messages"
        assert new_text and new_text != msg.text, "a client sends no edit without a change"
        msg.text = new_text
        msg.entities = detect_entities(new_text)
        msg.edit_date = now()
        chat.history.append(self._view(msg, "edited"))
        replied = chat.messages.get(msg.reply_to_message_id or 0)
        if self._bot_sees(chat, new_text, replied):
            self._emit("edited_message", self._message_dict(msg))
        return self._view(msg)

    def _visible_chat(self, user: FakeUser, chat_id: int) -> Chat:
        chat = self._chats.get(chat_id)
        assert chat is not None, f"no chat {chat_id}"
        if chat.type == "private":
            assert chat.id == user.id, f"{user} cannot see the private chat {chat_id}"
            assert not user.blocked, f"{user} has blocked the bot"
        elif chat.type != "channel" or chat.username is None:
            member = chat.members.get(user.id)
            assert member is not None and member.status not in ("left", "kicked"), (
                f"{user} is not in {chat.title!r}"
            )
        return chat

    def _press(self, user: FakeUser, message: Any, data: str | None, label: str | None) -> str:
        chat_id, message_id = locate(message)
        chat = self._visible_chat(user, chat_id)
        msg = chat.messages.get(message_id)
        assert msg is not None and not msg.deleted, (
            f"message {message_id} does not exist in chat {chat_id} (deleted?)"
        )
        rows = (msg.reply_markup or {}).get("inline_keyboard", [])
        for row in rows:
            for button in row:
                if (data is not None and button.get("callback_data") == data) or (
                    data is None and button.get("text") == label
                ):
                    assert "callback_data" in button, (
                        f"button {button!r} is not a callback button; pressing it sends nothing"
                    )
                    return self._callback(user, chat, msg, button["callback_data"])
        current = [[b.get("callback_data") or b.get("url") for b in row] for row in rows]
        raise AssertionError(
            f"no button {data or label!r} on the current keyboard of message {message_id} "
            f"in chat {chat_id}: {current or 'no keyboard'}"
        )

    def _forged_press(
        self, user: FakeUser, where: FakeUser | FakeGroup | int, message_id: int, data: str
    ) -> str:
        chat = self._chat_of(where)
        if chat is None and isinstance(where, FakeUser):
            chat = self._private_chat(where)
        assert chat is not None, f"no chat {where!r}"
        msg = chat.messages.get(message_id)
        if msg is not None and not msg.deleted:
            return self._callback(user, chat, msg, data)
        inaccessible = {"chat": self._chat_dict(chat), "message_id": message_id, "date": 0}
        return self._callback(user, chat, None, data, inaccessible)

    def _callback(
        self,
        user: FakeUser,
        chat: Chat,
        msg: Message | None,
        data: str,
        message_dict: dict[str, Any] | None = None,
    ) -> str:
        query_id = str(next(self._query_ids))
        message_id = msg.message_id if msg else int((message_dict or {}).get("message_id", 0))
        self._queries[query_id] = Query(query_id, user.id, chat.id, message_id, data, self.clock())
        self._emit(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_dict(),
                "chat_instance": str(abs(chat.id) * 7 + 13),
                "data": data,
                "message": self._message_dict(msg) if msg else message_dict,
            },
        )
        return query_id

    def _service_message(
        self, chat: Chat, sender_id: int, service: dict[str, Any], thread_id: int | None = None
    ) -> Message:
        """A service message: delivered to the bot whenever it is in the chat, privacy mode or
        not (but not the bot's own: bots get no updates about their own messages)."""
        msg = self._new_message(chat, sender_id, None, service=service, thread_id=thread_id)
        if self._bot_in(chat) and sender_id != self.bot_id:
            self._emit("message", self._message_dict(msg))
        return msg

    def _chat_member_update(
        self, chat: Chat, user_id: int, actor_id: int, old_status: str
    ) -> None:
        """A chat_member update (bots get these only when they ask for them in
        allowed_updates and are an administrator of the chat, as on Telegram)."""
        bot = chat.members.get(self.bot_id)
        if bot is None or bot.status not in ("administrator", "creator"):
            return
        old = self._member_dict_for_status(chat, user_id, old_status)
        self._emit(
            "chat_member",
            {
                "chat": self._chat_dict(chat),
                "from": self._user_dict(actor_id),
                "date": now(),
                "old_chat_member": old,
                "new_chat_member": self._member_dict(chat, user_id),
            },
        )

    def _my_chat_member_update(self, chat: Chat, actor_id: int, old_status: str) -> None:
        self._emit(
            "my_chat_member",
            {
                "chat": self._chat_dict(chat),
                "from": self._user_dict(actor_id),
                "date": now(),
                "old_chat_member": self._member_dict_for_status(chat, self.bot_id, old_status),
                "new_chat_member": self._member_dict(chat, self.bot_id),
            },
        )

    def _member_dict_for_status(self, chat: Chat, user_id: int, status: str) -> dict[str, Any]:
        scratch = Chat(id=chat.id, type=chat.type)
        scratch.members[user_id] = Member(
            status,
            rights=dict(DEFAULT_ADMIN_RIGHTS),
            permissions={} if status == "restricted" else None,
            is_member=status not in ("left", "kicked"),
        )
        return self._member_dict(scratch, user_id)

    def _private_status_change(self, user: FakeUser, old: str, new: str) -> None:
        chat = self._private_chat(user)
        chat.members[self.bot_id] = Member(new)
        self._emit(
            "my_chat_member",
            {
                "chat": self._chat_dict(chat),
                "from": user.to_dict(),
                "date": now(),
                "old_chat_member": self._member_dict_for_status(chat, self.bot_id, old),
                "new_chat_member": self._member_dict(chat, self.bot_id),
            },
        )
        chat.members[self.bot_id] = Member("member")  # blocking is tracked on the user

    # ---- test side: reading what happened ----------------------------------------------------

    def _thread_filter(self, ref: Any) -> Callable[[int | None], bool]:
        if isinstance(ref, FakeTopic):
            return lambda thread_id: thread_id == ref.thread_id
        return lambda thread_id: True

    def messages(self, chat: Any, *, include_users: bool = False) -> list[MessageView]:
        """The current state of the bot's messages in a chat (a FakeUser means the private chat
        with them; a FakeTopic only that topic of its forum, `group.general` only General),
        oldest first, deleted ones left out. `include_users` adds everybody else's messages
        (service messages included)."""
        found = self._chat_of(chat)
        if found is None:
            return []
        in_thread = self._thread_filter(chat)
        return [
            self._view(m)
            for m in found.messages.values()
            if not m.deleted and (include_users or self._by_bot(m)) and in_thread(m.thread_id)
        ]

    def sent_to(self, user: FakeUser) -> list[MessageView]:
        """The bot's current messages in the private chat with `user`."""
        return self.messages(user)

    def last(self, chat: Any) -> MessageView | None:
        """The bot's newest message in a chat (or topic), or None."""
        found = self.messages(chat)
        return found[-1] if found else None

    def history(self, chat: Any, *, include_users: bool = False) -> list[MessageView]:
        """Every version of the bot's messages in a chat (or topic), in order: each send and
        each edit (event "sent" / "edited"), including messages deleted since. For secrecy
        checks."""
        found = self._chat_of(chat)
        if found is None:
            return []
        in_thread = self._thread_filter(chat)
        return [
            v for v in found.history
            if (include_users or v["from_bot"]) and in_thread(v["thread_id"])
        ]

    def all_history(self) -> list[MessageView]:
        """Every version of every bot message in every chat."""
        return [v for chat in self._chats.values() for v in chat.history if v["from_bot"]]

    def pinned(self, chat: FakeUser | FakeGroup | int) -> list[int]:
        """Ids of pinned messages, most recently pinned last."""
        found = self._chat_of(chat)
        return list(found.pinned) if found else []

    def unanswered_queries(self) -> list[str]:
        """Ids of callback queries the bot has not answered (a client shows a spinner until
        the answer comes, so the bot should answer every one)."""
        return [q.id for q in self._queries.values() if q.answer is None]

    def answered(self, query_id: str) -> bool:
        return self._queries[query_id].answer is not None

    def answer(self, query_id: str) -> dict[str, Any]:
        """The full answerCallbackQuery record: text, show_alert, url, cache_time. KeyError if
        the query does not exist or was not answered yet (so it works inside wait_for)."""
        answer = self._queries[query_id].answer
        if answer is None:
            raise KeyError(f"callback query {query_id} has not been answered")
        return dict(answer)

    def answer_for(self, query_id: str) -> str | None:
        """The text the bot answered the callback query with (None: answered without text)."""
        return self.answer(query_id)["text"]

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, str]]:
        """The command list set for exactly this scope (default: {"type": "default"}) and
        language ("" = all languages)."""
        return self._m_getMyCommands({"scope": scope, "language_code": language_code})

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        """Parameters of every call of `method`, in order."""
        return [params for name, params in self.calls if name == method]

    @property
    def flood_rejections(self) -> list[ApiError]:
        return [e for e in self.errors if e.error_code == 429]

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by the bot (a getUpdates with a higher offset, or a 2xx
        answer of its webhook)."""
        return len(self._pending)

    async def wait_for(
        self,
        predicate: Callable[[], Any] | Callable[[FakeBotAPI], Any],
        timeout: float = 10.0,
        *,
        what: str | None = None,
    ) -> Any:
        """Poll until `predicate()` (or `predicate(api)`) is truthy and return its value.

        IndexError/KeyError inside the predicate count as "not yet", so
        `lambda: api.sent_to(alice)[-1].text` works before anything was sent. On timeout,
        raises TimeoutError describing the newest messages, errors and pending updates."""
        try:
            takes_api = bool(inspect.signature(predicate).parameters)
        except (TypeError, ValueError):
            takes_api = False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        last_error: BaseException | None = None
        while True:
            try:
                result = predicate(self) if takes_api else predicate()  # type: ignore[call-arg]
                if inspect.isawaitable(result):
                    result = await result
                if result:
                    return result
            except LookupError as error:
                last_error = error
            if loop.time() >= deadline:
                label = what or getattr(predicate, "__name__", repr(predicate))
                reason = f" (last error: {last_error!r})" if last_error else ""
                raise TimeoutError(
                    f"condition {label} not met within {timeout}s{reason}\n{self.describe()}"
                )
            await asyncio.sleep(0.01)

    async def settle(self, quiet: float = 0.15, timeout: float = 10.0) -> None:
        """Wait until the bot received every update (fetched it, or its webhook confirmed it)
        and made no call for `quiet` seconds; for asserting that something did *not* happen."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if self._webhook_task is not None:
                fetched = not self._pending
            else:
                fetched = all(u["update_id"] <= self._highest_fetched for u in self._pending)
            if fetched and self._inflight == 0 and loop.time() - self._last_activity >= quiet:
                return
            if loop.time() >= deadline:
                raise TimeoutError(f"the bot did not go quiet within {timeout}s\n{self.describe()}")
            await asyncio.sleep(0.01)

    async def poll_parked(self, timeout: float = 1.0) -> bool:
        """Wait until the bot's newest getUpdates is parked in its long poll (fully received,
        waiting for updates). Stop the Updater only then: cancelling PTB's poll while httpx is
        still sending it can leave httpcore's one-connection pool marked busy, and the Updater's
        final getUpdates then waits out the 1 s pool timeout and logs an error. `polling()` does
        this for you. Returns False if the bot did not park within `timeout`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._parked_generation != self._poll_generation or self._parked_generation < 0:
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.005)
        return True

    def describe(self, last: int = 12) -> str:
        """A readable summary of the recent state, for failure messages."""
        lines = []
        unfetched = [u for u in self._pending if u["update_id"] > self._highest_fetched]
        lines.append(
            f"updates: {len(self._pending)} unconfirmed, {len(unfetched)} never fetched by the bot"
            + ("" if self.calls_to("getUpdates") or self.webhook_url
               else " (the bot never called getUpdates)")
        )
        if self.webhook_url:
            attempts = self.webhook_deliveries[-5:]
            lines.append(f"webhook {self.webhook_url}: last attempts {attempts}")
        recent: list[MessageView] = []
        for chat in self._chats.values():
            recent.extend(chat.history)
        recent.sort(key=lambda v: v["date"])
        lines.append(f"last {min(last, len(recent))} message versions:")
        for view in recent[-last:]:
            chat = self._chats[view["chat_id"]]
            if chat.type == "private":
                where = f"private {self._users[chat.id].first_name}"
            else:
                where = chat.title or str(chat.id)
            if view["thread_id"] is not None:
                where += f" topic {view['thread_id']}"
            if view["from_bot"]:
                who = "bot"
            elif view["sender_id"] is None:
                who = where
            else:
                who = self._user_dict(view["sender_id"])["first_name"]
            buttons = [
                [b.get("callback_data") or b.get("url") for b in row] for row in view["buttons"]
            ]
            text = view["text"] if len(view["text"]) < 200 else view["text"][:200] + "..."
            lines.append(
                f"  [{where} #{view['message_id']} {view.get('event', '')}] {who}: {text!r}"
                + (f" buttons={buttons}" if buttons else "")
            )
        for error in self.errors[-5:]:
            lines.append(f"  error: {error.method} -> {error.error_code} {error.description}")
        for violation in self.violations[-5:]:
            lines.append(f"  violation: {violation}")
        if self.unknown_methods:
            lines.append(f"  unknown methods called: {self.unknown_methods}")
        if self.internal_errors:
            lines.append(f"  internal errors: {self.internal_errors[-3:]}")
        return "\n".join(lines)


#: Started servers by URL, so that `polling()` can find the fake an Application talks to.
_RUNNING: dict[str, FakeBotAPI] = {}


PHOTO_MAX_BYTES = 10 * 1024 * 1024
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Upload:
    """A photo the bot uploaded (`sendPhoto` with a file): where it went and the file."""

    chat_id: int
    message_id: int
    data: bytes
    width: int
    height: int


def uploaded_photo(photo: Any) -> tuple[bytes, int, int] | None:
    """An uploaded photo's bytes and size, refused as Telegram refuses it: empty, over 10 MB,
    no image it can read, width plus height over 10,000 or sides more than 20 to 1. A file id
    or URL (a string) is no upload: None."""
    if not isinstance(photo, web.FileField):
        return None
    data = photo.file.read()
    if not data:
        raise bad("file must be non-empty")
    if len(data) > PHOTO_MAX_BYTES:
        raise bad("PHOTO_SAVE_FILE_INVALID")
    if data.startswith(PNG_MAGIC) and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
    elif data.startswith(b"\xff\xd8\xff"):
        return data, 0, 0  # a JPEG: its size is not read here
    else:
        raise bad("IMAGE_PROCESS_FAILED")
    if not width or not height or width + height > 10_000 or max(width, height) > 20 * min(
            width, height):
        raise bad("PHOTO_INVALID_DIMENSIONS")
    return data, width, height


async def _read_params(request: web.Request) -> dict[str, Any]:
    """The raw parameters of a Bot API request, as Telegram takes them: the query string,
    a form or multipart body (values still text, or uploaded files), or a JSON body (values
    as JSON has them). `BotAPISpec.decode` turns text values into what they mean."""
    params: dict[str, Any] = dict(request.query)
    if request.method != "POST" or not request.can_read_body:
        return params
    if request.content_type == "application/json":
        body = await request.json()
        if not isinstance(body, dict):
            raise ValueError("JSON body must be an object")
        params.update(body)
        return params
    form = await request.post()
    params.update(form)
    return params


def _update_kind(update: dict[str, Any]) -> str:
    return next(key for key in update if key != "update_id")


def assert_no_violations(api: FakeBotAPI) -> None:
    """Fail with every recorded violation: requests Telegram would have refused or misread."""
    assert not api.violations, "the bot sent requests Telegram would refuse or misread:\n" + (
        "\n".join(f"  {v}" for v in api.violations)
    )


@contextlib.asynccontextmanager
async def polling(app: Application, *, timeout: int = 1) -> AsyncIterator[Application]:
    """Run `app` with long polling for the duration of the block, stopping it in reverse order.
    `timeout` is the getUpdates long-poll timeout; keep it small so tests end fast."""
    await app.initialize()
    await app.start()
    assert app.updater is not None, "build the Application with an Updater"
    await app.updater.start_polling(poll_interval=0, timeout=timeout)
    try:
        yield app
    finally:
        api = next(
            (api for url, api in _RUNNING.items() if app.bot.base_url.startswith(url)), None
        )
        if api is not None and app.updater.running:
            await api.poll_parked()
        if app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await app.shutdown()


__all__ = [
    "CHANNEL_BOT_ID",
    "DEFAULT_BOT_USERNAME",
    "DEFAULT_TOKEN",
    "GROUP_ANONYMOUS_BOT_ID",
    "QUERY_TIMEOUT",
    "TELEGRAM_USER_ID",
    "ApiError",
    "BotAPIError",
    "Errors",
    "FakeBotAPI",
    "FakeChannel",
    "FakeGroup",
    "FakeTopic",
    "FakeUser",
    "FloodRules",
    "MessageView",
    "assert_no_violations",
    "forbidden",
    "polling",
]
