"""The state of the fake Telegram world: chats, members, messages, topics, callback queries,
plus the constants and small helpers the server and the world share.

Why a module of its own: both the server (`fake_botapi.py`) and the parts of the world that
live in `fake_world.py` (forums, channels, group upgrades) build and read these records; one
module for them keeps the two from importing each other."""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import telegram

DEFAULT_TOKEN = "123456:TEST-token"
DEFAULT_BOT_USERNAME = "nightfall_test_bot"
#: The user Telegram puts in `from` of a message an anonymous group admin sends.
GROUP_ANONYMOUS_BOT_ID = 1087968824
#: The "Telegram" service user: `from` of channel posts automatically forwarded to the
#: channel's linked discussion group.
TELEGRAM_USER_ID = 777000
#: The user Telegram puts in `from` of a message sent on behalf of a channel.
CHANNEL_BOT_ID = 136817688

SERVICE_USERS: dict[int, dict[str, Any]] = {
    GROUP_ANONYMOUS_BOT_ID: {
        "id": GROUP_ANONYMOUS_BOT_ID, "is_bot": True, "first_name": "Group",
        "username": "GroupAnonymousBot",
    },
    TELEGRAM_USER_ID: {"id": TELEGRAM_USER_ID, "is_bot": False, "first_name": "Telegram"},
    CHANNEL_BOT_ID: {
        "id": CHANNEL_BOT_ID, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot",
    },
}

#: Update types a bot gets when it never asked for a specific list (Bot API: all but
#: chat_member, message_reaction and message_reaction_count).
DEFAULT_ALLOWED_UPDATES = frozenset(
    {
        "message", "edited_message", "channel_post", "edited_channel_post",
        "business_connection", "business_message", "edited_business_message",
        "deleted_business_messages", "inline_query", "chosen_inline_result",
        "callback_query", "shipping_query", "pre_checkout_query", "purchased_paid_media",
        "poll", "poll_answer", "my_chat_member", "chat_join_request", "chat_boost",
        "removed_chat_boost",
    }
)

#: createForumTopic: the icon colours Telegram accepts (and the first is the default).
FORUM_ICON_COLORS = (7322096, 16766590, 13338331, 9367192, 16749490, 16478047)

#: The General topic of a forum: its internal thread id, which the Bot API never shows
#: (messages in General carry no message_thread_id) and refuses as message_thread_id.
GENERAL_THREAD_ID = 1


def _can_fields(cls: type) -> tuple[str, ...]:
    """The `can_*` flags of a PTB class. Read from PTB so that new Bot API flags (PTB adds some
    in most releases) are filled in without editing this file."""
    return tuple(n for n in inspect.signature(cls.__init__).parameters if n.startswith("can_"))


#: Every flag of ChatPermissions in the installed PTB.
PERMISSION_FIELDS = _can_fields(telegram.ChatPermissions)
#: Every right of ChatMemberAdministrator in the installed PTB.
ADMIN_RIGHT_FIELDS = tuple(
    n for n in _can_fields(telegram.ChatMemberAdministrator) if n != "can_be_edited"
)

#: What an administrator added without explicit rights may do (the usual Telegram defaults).
DEFAULT_ADMIN_RIGHTS: dict[str, bool] = {
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_pin_messages": True,
    "can_manage_topics": True,
}

_MEDIA_FLAGS = (
    "can_send_audios", "can_send_documents", "can_send_photos", "can_send_videos",
    "can_send_video_notes", "can_send_voice_notes",
)


def chat_permissions(given: dict[str, Any], *, independent: bool) -> dict[str, bool]:
    """The permissions Telegram stores for restrictChatMember / setChatPermissions, computed as
    the server does (telegram-bot-api, Client::get_chat_permissions): every flag not given is
    False, except can_manage_topics and can_edit_tag (default: can_pin_messages) and
    can_react_to_messages (default: can_send_messages); the pre-7.0 can_send_media_messages
    stands for the six media flags when none of them is given. Without
    `use_independent_chat_permissions`, can_send_other_messages or can_add_web_page_previews
    imply can_send_messages and every media flag, and can_send_polls implies
    can_send_messages (Bot API, restrictChatMember)."""
    flags = {name: bool(given.get(name, False)) for name in PERMISSION_FIELDS}
    for name in ("can_manage_topics", "can_edit_tag"):
        if name in flags and name not in given:
            flags[name] = bool(given.get("can_pin_messages", False))
    if "can_react_to_messages" in flags and "can_react_to_messages" not in given:
        flags["can_react_to_messages"] = bool(given.get("can_send_messages", False))
    if not any(name in given for name in _MEDIA_FLAGS):
        media = bool(given.get("can_send_media_messages", False))
        for name in _MEDIA_FLAGS:
            flags[name] = media
        if media and not independent:
            flags["can_send_messages"] = True
    if not independent:
        if flags.get("can_send_other_messages") or flags.get("can_add_web_page_previews"):
            for name in (*_MEDIA_FLAGS, "can_send_messages"):
                flags[name] = True
        if flags.get("can_send_polls"):
            flags["can_send_messages"] = True
    return flags


def now() -> int:
    """Bot API dates are Unix seconds."""
    return int(time.time())


def ptb_dict(cls: type[telegram.TelegramObject], **kwargs: Any) -> dict[str, Any]:
    """Serialize through PTB's own class so the payload has exactly the fields this PTB version
    requires. Required fields the fake does not model (flags added by newer Bot API versions)
    default to False."""
    for name, param in inspect.signature(cls.__init__).parameters.items():
        if name in ("self", "api_kwargs") or name in kwargs:
            continue
        if param.default is inspect.Parameter.empty and param.kind in (
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            inspect.Parameter.KEYWORD_ONLY,
        ):
            kwargs[name] = False
    return cls(**kwargs).to_dict()


def epoch(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def user_id_of(user: Any) -> int:
    """A FakeUser's id, or the int itself."""
    return user if isinstance(user, int) else int(user.id)


def locate(message: Any) -> tuple[int, int]:
    """(chat_id, message_id) of a MessageView, a Bot API message dict, or a PTB Message."""
    if isinstance(message, dict):
        chat_id = message.get("chat_id")
        if chat_id is None:
            chat_id = message["chat"]["id"]
        return int(chat_id), int(message["message_id"])
    return int(message.chat_id), int(message.message_id)


# --------------------------------------------------------------------------------------------
# Records


@dataclass
class Member:
    status: str  # creator | administrator | member | restricted | left | kicked
    rights: dict[str, bool] = field(default_factory=dict)
    permissions: dict[str, bool] | None = None
    is_member: bool = True
    until_date: int = 0
    custom_title: str | None = None


@dataclass
class Message:
    chat_id: int
    message_id: int
    date: int
    sender_id: int | None
    text: str | None
    entities: list[dict[str, Any]]
    source_text: str | None = None
    parse_mode: str | None = None
    reply_markup: dict[str, Any] | None = None
    reply_to_message_id: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    #: `sender_chat` of the message: the group (anonymous admin) or a channel.
    sender_chat_id: int | None = None
    #: The human behind the message (an anonymous admin or a channel's poster).
    real_sender_id: int | None = None
    #: The forum topic (its thread id); None for General and for chats without topics.
    thread_id: int | None = None
    #: Extra Message fields as Telegram sends them (service payloads, forward_origin,
    #: is_automatic_forward, author_signature, photo, caption...).
    service: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Topic:
    """A forum topic. Its thread id is the id of its forum_topic_created service message."""

    thread_id: int
    name: str
    icon_color: int
    creator_id: int
    icon_custom_emoji_id: str | None = None
    closed: bool = False
    deleted: bool = False


@dataclass
class Chat:
    id: int
    type: str  # private | group | supergroup | channel
    title: str | None = None
    username: str | None = None
    members: dict[int, Member] = field(default_factory=dict)
    permissions: dict[str, bool] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    history: list[MessageView] = field(default_factory=list)
    next_message_id: int = 1
    pinned: list[int] = field(default_factory=list)
    invite_links: list[dict[str, Any]] = field(default_factory=list)
    primary_link: str | None = None
    is_forum: bool = False
    topics: dict[int, Topic] = field(default_factory=dict)
    general_closed: bool = False
    #: Set on a basic group once it was upgraded: the supergroup's id.
    migrated_to: int | None = None
    migrated_from: int | None = None
    #: A channel's discussion group, or a group's channel.
    linked_chat_id: int | None = None


@dataclass
class Query:
    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created: float
    answer: dict[str, Any] | None = None


class MessageView(dict[str, Any]):
    """A snapshot of one message as the tests see it.

    It is the Bot API Message dict (message_id, date, chat, from, text, entities, reply_markup,
    edit_date, reply_to_message, sender_chat, message_thread_id, is_topic_message...) plus
    conveniences: `chat_id`, `buttons` (rows of button dicts, [] without an inline keyboard),
    `edited`, `from_bot` (sent by *our* bot), `sender_id`, `deleted`, `parse_mode`,
    `source_text` (the text as the bot sent it, before markup parsing; `text` is what users
    see), `reply_to_message_id`, `thread_id` (the forum topic, None for General); history
    entries also have `event` ("sent" or "edited"). Keys are readable as attributes too
    (`view.text`, `view.from_user` for "from"), so tests can use whichever style reads better."""

    def __getattr__(self, name: str) -> Any:
        key = "from" if name == "from_user" else name
        try:
            return self[key]
        except KeyError:
            raise AttributeError(name) from None

    def button(self, data: str | None = None, *, text: str | None = None) -> dict[str, Any] | None:
        """The first button with this callback_data (or this label), or None."""
        for row in self.get("buttons", []):
            for button in row:
                if (data is not None and button.get("callback_data") == data) or (
                    text is not None and button.get("text") == text
                ):
                    return button
        return None
