"""The parts of the fake Telegram world that ordinary groups do not have: forum topics,
channels with their linked discussion groups, group upgrades, and raw updates of any kind.

Why it exists: these are where bots written against plain groups break in production. In a
forum every message belongs to a topic (General has no message_thread_id; a closed topic
refuses non-admins with TOPIC_CLOSED; a deleted one answers "message thread not found"). A
basic group upgraded to a supergroup gets a new id, and every write to the old id answers
"group chat was upgraded" with the new id in parameters.migrate_to_chat_id, while the old
message ids mean nothing in the new chat. A channel's posts arrive in its discussion group as
automatic forwards from user 777000. The behaviours follow the telegram-bot-api server
(github.com/tdlib/telegram-bot-api) where the documentation is silent.

`WorldMixin` holds FakeBotAPI's methods for all this (FakeBotAPI inherits it; the methods use
the server's internals freely); `FakeTopic` and `FakeChannel` are the test-side handles."""

from __future__ import annotations

import copy
import itertools
from typing import TYPE_CHECKING, Any

from .botapi_errors import Errors, bad
from .fake_state import (
    CHANNEL_BOT_ID,
    DEFAULT_ADMIN_RIGHTS,
    FORUM_ICON_COLORS,
    GENERAL_THREAD_ID,
    PERMISSION_FIELDS,
    TELEGRAM_USER_ID,
    Chat,
    Member,
    Message,
    MessageView,
    Topic,
    user_id_of,
)

if TYPE_CHECKING:
    from .fake_botapi import FakeBotAPI, FakeGroup, FakeUser


class FakeTopic:
    """A forum topic of a FakeGroup, or its General topic (`thread_id` None). Pass it as
    `chat=` to FakeUser.send to post in the topic, and to `api.messages()` / `api.history()`
    to read the bot's messages in this topic only."""

    def __init__(self, group: FakeGroup, topic: Topic | None) -> None:
        self.group = group
        self._topic = topic

    def __repr__(self) -> str:
        return f"FakeTopic({self.name!r}, thread_id={self.thread_id}, in {self.group!r})"

    @property
    def api(self) -> FakeBotAPI:
        return self.group.api

    @property
    def _chat(self) -> Chat:
        return self.group._chat

    @property
    def thread_id(self) -> int | None:
        """The message_thread_id of messages in this topic (None: General, whose messages
        carry none)."""
        return self._topic.thread_id if self._topic else None

    @property
    def is_general(self) -> bool:
        return self._topic is None

    @property
    def name(self) -> str:
        return self._topic.name if self._topic else "General"

    @property
    def chat_id(self) -> int:
        return self.group.id

    id = chat_id

    @property
    def closed(self) -> bool:
        return self._topic.closed if self._topic else self._chat.general_closed

    @property
    def deleted(self) -> bool:
        return bool(self._topic and self._topic.deleted)

    def close(self, by: FakeUser | None = None) -> None:
        """An admin closes the topic: a forum_topic_closed service message in it; from now on
        only admins with can_manage_topics may post (others get TOPIC_CLOSED)."""
        self.api._set_topic_closed(self._chat, self._topic, True, by)

    def reopen(self, by: FakeUser | None = None) -> None:
        self.api._set_topic_closed(self._chat, self._topic, False, by)

    def delete(self) -> None:
        """An admin deletes the topic and, with it, every message in it (no service message)."""
        assert self._topic is not None, "the General topic cannot be deleted"
        self.api._delete_topic(self._chat, self._topic)

    def messages(self, *, include_users: bool = False) -> list[MessageView]:
        return self.api.messages(self, include_users=include_users)


class FakeChannel:
    """A channel. `post()` publishes as the channel; with a linked discussion group
    (`FakeGroup.link_channel`) each post also arrives there as an automatic forward."""

    def __init__(self, api: FakeBotAPI, chat: Chat) -> None:
        self.api = api
        self._chat = chat
        #: The automatic forward of the last post into the linked group (None if unlinked).
        self.last_forward: MessageView | None = None

    def __repr__(self) -> str:
        return f"FakeChannel({self.title!r}, id={self.id})"

    @property
    def id(self) -> int:
        return self._chat.id

    chat_id = id

    @property
    def title(self) -> str:
        return self._chat.title or ""

    @property
    def username(self) -> str | None:
        return self._chat.username

    def add_admin(self, user: FakeUser) -> None:
        """Let `user` post in the channel and send messages on its behalf in groups."""
        self._chat.members[user.id] = Member("administrator", rights=dict(DEFAULT_ADMIN_RIGHTS))

    def post(self, text: str, *, signature: str | None = None) -> MessageView:
        """Publish `text` in the channel. The bot gets channel_post if it administers the
        channel; the linked discussion group gets the automatic forward (see `last_forward`)."""
        return self.api._channel_post(self, text, signature)

    def messages(self, *, include_users: bool = True) -> list[MessageView]:
        return self.api.messages(self, include_users=include_users)


class WorldMixin:
    """FakeBotAPI's methods for forums, channels, upgrades and raw updates."""

    if TYPE_CHECKING:  # provided by FakeBotAPI
        bot_id: int
        _chats: dict[int, Chat]
        _supergroup_ids: itertools.count[int]

        def _emit(self, kind: str, payload: dict[str, Any]) -> int: ...
        def _new_message(self, chat: Chat, sender_id: int | None, text: str | None,
                         **fields: Any) -> Message: ...
        def _message_dict(self, msg: Message, *, nested: bool = False) -> dict[str, Any]: ...
        def _view(self, msg: Message, event: str | None = None) -> MessageView: ...
        def _service_message(self, chat: Chat, sender_id: int, service: dict[str, Any],
                             thread_id: int | None = None) -> Message: ...
        def _bot_in(self, chat: Chat) -> bool: ...
        def _bot_right(self, chat: Chat, right: str) -> bool: ...
        def _bot_sees(self, chat: Chat, text: str, reply_to: Message | None) -> bool: ...
        def _owner_of(self, chat: Chat) -> int: ...
        def _chat_dict(self, chat: Chat) -> dict[str, Any]: ...
        def _resolve_chat(self, p: dict[str, Any], method: str) -> Chat: ...
        def _is_admin(self, chat: Chat, user_id: int) -> bool: ...

    # ---- raw updates --------------------------------------------------------------------------

    def emit_raw(self, update_kind: str, payload: dict[str, Any]) -> int:
        """Queue an update of any kind (edited_message, channel_post, business_message,
        chat_member, message_reaction, poll, ...) with `payload` as its object, exactly as
        given. allowed_updates filtering applies as for every update. Returns its update_id."""
        from .botapi_spec import BotAPISpec

        kinds = BotAPISpec.load().update_kinds
        assert update_kind in kinds, f"{update_kind!r} is not an Update field: {kinds}"
        return self._emit(update_kind, copy.deepcopy(payload))

    # ---- forums -------------------------------------------------------------------------------

    def _create_topic(
        self, chat: Chat, name: str, by: int, icon_color: int | None = None,
        icon_custom_emoji_id: str | None = None,
    ) -> Topic:
        """The forum_topic_created service message opens the topic: its message id becomes the
        topic's message_thread_id, and it is itself the first message of the topic."""
        assert chat.is_forum, f"{chat.title!r} is not a forum (api.group(..., forum=True))"
        color = icon_color if icon_color is not None else FORUM_ICON_COLORS[0]
        payload: dict[str, Any] = {"name": name, "icon_color": color}
        if icon_custom_emoji_id:
            payload["icon_custom_emoji_id"] = icon_custom_emoji_id
        thread_id = chat.next_message_id
        topic = Topic(thread_id, name, color, by, icon_custom_emoji_id)
        chat.topics[thread_id] = topic
        self._service_message(chat, by, {"forum_topic_created": payload}, thread_id=thread_id)
        return topic

    def _set_topic_closed(
        self, chat: Chat, topic: Topic | None, closed: bool, by: FakeUser | int | None
    ) -> None:
        actor = user_id_of(by) if by is not None else self._owner_of(chat)
        if topic is None:
            assert chat.general_closed != closed, "the General topic is already so"
            chat.general_closed = closed
        else:
            assert not topic.deleted, f"topic {topic.name!r} was deleted"
            assert topic.closed != closed, f"topic {topic.name!r} is already so"
            topic.closed = closed
        kind = "forum_topic_closed" if closed else "forum_topic_reopened"
        self._service_message(chat, actor, {kind: {}}, thread_id=topic.thread_id if topic else None)

    def _delete_topic(self, chat: Chat, topic: Topic) -> None:
        topic.deleted = True
        for msg in chat.messages.values():
            if msg.thread_id == topic.thread_id:
                msg.deleted = True

    def _forum_topic(self, chat: Chat, p: dict[str, Any]) -> Topic:
        if not chat.is_forum:
            raise bad("the chat is not a forum")
        raw = p.get("message_thread_id")
        thread_id = int(raw) if raw not in (None, "") else 0
        topic = chat.topics.get(thread_id)
        if topic is None or topic.deleted:
            raise Errors.thread_not_found()
        return topic

    def _thread_for_send(
        self, chat: Chat, p: dict[str, Any], replied: Message | None
    ) -> int | None:
        """The topic a bot's message goes to, with the server's rules: message_thread_id is
        ignored outside forum supergroups (telegram-bot-api check_message_topic); in a forum,
        no id means General (or the replied-to message's topic), the General topic's own id is
        refused, an unknown or deleted topic is "message thread not found", and a closed topic
        is TOPIC_CLOSED unless the bot may manage topics."""
        if chat.type != "supergroup" or not chat.is_forum:
            return None
        raw = p.get("message_thread_id")
        thread_id = int(raw) if isinstance(raw, int) or (isinstance(raw, str) and raw) else 0
        thread_id = max(thread_id, 0)
        if thread_id == GENERAL_THREAD_ID:
            raise Errors.thread_not_found()
        topic: Topic | None = None
        if thread_id:
            topic = chat.topics.get(thread_id)
            if topic is None or topic.deleted:
                raise Errors.thread_not_found()
        elif replied is not None and replied.thread_id is not None:
            topic = chat.topics.get(replied.thread_id)
        closed = topic.closed if topic is not None else chat.general_closed
        if closed and not self._bot_right(chat, "can_manage_topics"):
            raise Errors.topic_closed()
        return topic.thread_id if topic is not None else None

    def _m_createForumTopic(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._resolve_chat(p, "createForumTopic")
        if not chat.is_forum:
            raise bad("the chat is not a forum")
        if not self._bot_right(chat, "can_manage_topics"):
            raise bad("not enough rights to create a topic")
        color = p.get("icon_color")
        if color is not None and int(color) not in FORUM_ICON_COLORS:
            # the documentation lists the allowed colours; this wording is the fake's
            raise bad("TOPIC_ICON_COLOR_INVALID")
        topic = self._create_topic(
            chat, str(p["name"]), self.bot_id, int(color) if color is not None else None,
            p.get("icon_custom_emoji_id"),
        )
        result: dict[str, Any] = {
            "message_thread_id": topic.thread_id, "name": topic.name,
            "icon_color": topic.icon_color,
        }
        if topic.icon_custom_emoji_id:
            result["icon_custom_emoji_id"] = topic.icon_custom_emoji_id
        return result

    def _topic_admin(self, p: dict[str, Any], method: str, right: str) -> tuple[Chat, Topic]:
        chat = self._resolve_chat(p, method)
        topic = self._forum_topic(chat, p)
        if topic.creator_id != self.bot_id and not self._bot_right(chat, right):
            raise bad("not enough rights to manage topics")
        return chat, topic

    def _m_editForumTopic(self, p: dict[str, Any]) -> bool:
        chat, topic = self._topic_admin(p, "editForumTopic", "can_manage_topics")
        edited: dict[str, Any] = {}
        if p.get("name"):
            topic.name = edited["name"] = str(p["name"])
        if p.get("icon_custom_emoji_id") is not None:
            topic.icon_custom_emoji_id = edited["icon_custom_emoji_id"] = str(
                p["icon_custom_emoji_id"]
            )
        if not edited:
            raise bad("TOPIC_NOT_MODIFIED")
        self._service_message(chat, self.bot_id, {"forum_topic_edited": edited}, topic.thread_id)
        return True

    def _toggle_topic(self, p: dict[str, Any], method: str, closed: bool) -> bool:
        chat, topic = self._topic_admin(p, method, "can_manage_topics")
        if topic.closed == closed:
            raise bad("TOPIC_NOT_MODIFIED")
        self._set_topic_closed(chat, topic, closed, self.bot_id)
        return True

    def _m_closeForumTopic(self, p: dict[str, Any]) -> bool:
        return self._toggle_topic(p, "closeForumTopic", True)

    def _m_reopenForumTopic(self, p: dict[str, Any]) -> bool:
        return self._toggle_topic(p, "reopenForumTopic", False)

    def _m_deleteForumTopic(self, p: dict[str, Any]) -> bool:
        chat, topic = self._topic_admin(p, "deleteForumTopic", "can_delete_messages")
        self._delete_topic(chat, topic)
        return True

    def _toggle_general(self, p: dict[str, Any], method: str, closed: bool) -> bool:
        chat = self._resolve_chat(p, method)
        if not chat.is_forum:
            raise bad("the chat is not a forum")
        if not self._bot_right(chat, "can_manage_topics"):
            raise bad("not enough rights to manage topics")
        if chat.general_closed == closed:
            raise bad("TOPIC_NOT_MODIFIED")
        self._set_topic_closed(chat, None, closed, self.bot_id)
        return True

    def _m_closeGeneralForumTopic(self, p: dict[str, Any]) -> bool:
        return self._toggle_general(p, "closeGeneralForumTopic", True)

    def _m_reopenGeneralForumTopic(self, p: dict[str, Any]) -> bool:
        return self._toggle_general(p, "reopenGeneralForumTopic", False)

    # ---- upgrades -----------------------------------------------------------------------------

    def _upgrade(self, chat: Chat, by: int) -> Chat:
        """A basic group becomes a supergroup, as Telegram does it: a new chat with a -100 id,
        the same members with the same statuses, message ids starting afresh (its first
        message, id 1, is the migrate_from_chat_id service message); the old chat keeps its
        messages and gets the migrate_to_chat_id service message, and from then on answers
        writes with "group chat was upgraded to a supergroup chat"."""
        assert chat.type == "group", f"{chat.title!r} is already a {chat.type}"
        assert chat.migrated_to is None, f"{chat.title!r} was upgraded already"
        new = Chat(
            id=-int(f"100{1_000_000_000 + next(self._supergroup_ids)}"),
            type="supergroup",
            title=chat.title,
            members=copy.deepcopy(chat.members),
            permissions=dict(chat.permissions),
            migrated_from=chat.id,
        )
        self._chats[new.id] = new
        self._service_message(chat, by, {"migrate_to_chat_id": new.id})
        chat.migrated_to = new.id
        self._service_message(new, by, {"migrate_from_chat_id": chat.id})
        return new

    # ---- channels -----------------------------------------------------------------------------

    def channel(
        self,
        title: str,
        *,
        username: str | None = None,
        owner: FakeUser | None = None,
        bot_admin: bool = False,
    ) -> FakeChannel:
        """A channel. The bot is in it only as an administrator (`bot_admin`: it then gets
        channel_post updates and may post); `owner` may post on its behalf in groups."""
        chat = Chat(
            id=-int(f"100{1_000_000_000 + next(self._supergroup_ids)}"),
            type="channel",
            title=title,
            username=username,
            permissions={name: False for name in PERMISSION_FIELDS},
        )
        if owner is not None:
            chat.members[owner.id] = Member("creator")
        if bot_admin:
            chat.members[self.bot_id] = Member(
                "administrator",
                rights={**DEFAULT_ADMIN_RIGHTS, "can_post_messages": True,
                        "can_edit_messages": True},
            )
        self._chats[chat.id] = chat
        return FakeChannel(self, chat)  # type: ignore[arg-type]

    def _link(self, group: Chat, channel: Chat) -> None:
        assert group.type == "supergroup", "a discussion group must be a supergroup"
        assert channel.type == "channel", f"{channel.title!r} is not a channel"
        group.linked_chat_id = channel.id
        channel.linked_chat_id = group.id

    def _channel_post(
        self, channel: FakeChannel, text: str, signature: str | None
    ) -> MessageView:
        from .botapi_format import detect_entities

        chat = channel._chat
        entities = detect_entities(text)
        extra = {"author_signature": signature} if signature else {}
        post = self._new_message(
            chat, None, text, entities=entities, sender_chat_id=chat.id, service=extra
        )
        if self._bot_in(chat) and chat.members[self.bot_id].status in ("administrator",
                                                                      "creator"):
            self._emit("channel_post", self._message_dict(post))
        channel.last_forward = None
        group = self._chats.get(chat.linked_chat_id or 0)
        if group is not None:
            channel_dict = self._chat_dict(chat)
            forward = self._new_message(
                group, TELEGRAM_USER_ID, text, entities=copy.deepcopy(entities),
                sender_chat_id=chat.id,
                service={
                    "forward_origin": {
                        "type": "channel", "chat": channel_dict,
                        "message_id": post.message_id, "date": post.date, **extra,
                    },
                    "is_automatic_forward": True,
                    "forward_from_chat": channel_dict,
                    "forward_from_message_id": post.message_id,
                    "forward_date": post.date,
                    **({"forward_signature": signature} if signature else {}),
                },
            )
            if self._bot_sees(group, text, None):
                self._emit("message", self._message_dict(forward))
            channel.last_forward = self._view(forward)
        return self._view(post)

    def _as_channel_sender(self, chat: Chat, user: FakeUser, channel: FakeChannel) -> int:
        """`from` of a message sent on behalf of a channel: Channel_Bot (136817688)."""
        member = channel._chat.members.get(user.id)
        assert member is not None and member.status in ("creator", "administrator"), (
            f"{user} does not administer {channel.title!r}, so cannot post on its behalf"
        )
        assert chat.type == "supergroup", "only supergroups take messages sent as a channel"
        return CHANNEL_BOT_ID

