"""Telegram updates as the service's platform-neutral `Incoming`, `ChatEvent` or `Membership`
(pure functions, no I/O). Whatever the game has no use for (channel posts, a linked
channel's automatic forwards, other bots, reactions...) becomes None. An edited message
becomes the situation "edited", naming the message it changed: edits never count, and a
vote in an edited message is withdrawn (the service decides)."""

from __future__ import annotations

from telegram import Chat, ChatMember, ChatMemberUpdated, Message, MessageEntity, Update, User
from telegram.constants import ChatMemberStatus

from core.service import (
    ChatChange,
    ChatEvent,
    ChatRef,
    Command,
    Incoming,
    Lack,
    LostReason,
    MemberBack,
    MemberLeft,
    Membership,
    Mention,
    UserRef,
)

from .refs import anonymous_ref, chat_ref

PLATFORM = "telegram"
GROUP_TYPES = (Chat.GROUP, Chat.SUPERGROUP)
TELEGRAM_SERVICE_USER = 777000  # "Telegram": a linked channel's posts forwarded into a group
GONE = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)


def locale_hint(user: User | None) -> str | None:
    """Telegram's `language_code` is an IETF tag ("de", "ru", "en-GB"): we need the language."""
    code = (user.language_code if user else None) or ""
    return code.split("-")[0].lower() or None


def display_name(user: User) -> str:
    """What other players call this person: the name they chose in Telegram, never empty."""
    return user.full_name.strip() or (user.username or "") or str(user.id)


def command_word(text: str) -> str:
    """The command a text starts with ("/vote@bot Ann" → "vote@bot"), or "" for no command."""
    if not text.startswith("/"):
        return ""
    words = text[1:].split(maxsplit=1)
    return words[0] if words else ""


def command_of(text: str, private: bool) -> Command | None:
    """`/vote@bot Ann` as the command (vote, Ann): the addressee is this bot (see
    `addressed_elsewhere`). "Start" pressed on the bot's profile inside a group sends
    `/start`: there it asks for the group's help."""
    command = Command.parse(text)
    if command is None:
        return None
    word = command.word.split("@")[0]
    if word == "start" and not private:
        return Command("help")
    return Command(word, command.args)


def addressed_elsewhere(text: str, bot_username: str) -> bool:
    """`/vote@otherbot Ann` is meant for another bot in the same group."""
    _, at, target = command_word(text).partition("@")
    return bool(at) and target.lower() != bot_username.lower()


def anonymous_admin(message: Message) -> bool:
    """A group admin posting as the group itself ("remain anonymous")."""
    return message.sender_chat is not None and message.sender_chat.id == message.chat.id


def message_chat(message: Message) -> ChatRef:
    """The chat ref of a group message: the forum topic it was written in, if any (replies
    in an ordinary supergroup also carry a thread id: that is no topic)."""
    thread = message.message_thread_id if message.is_topic_message else None
    return chat_ref(message.chat.id, thread)


def message_identity(message: Message) -> str:
    """A message's id as the service keeps it: Telegram numbers messages per chat, and an
    edit keeps the number."""
    return f"{message.chat.id}:{message.message_id}"


def from_message(update: Update, message: Message, bot_username: str,
                 admin: bool) -> Incoming | None:
    """A text message in a private chat or a group, new or (`update.edited_message`)
    edited; None for what the game ignores."""
    text = message.text or ""
    chat = message.chat
    if not text.strip() or chat.type not in (Chat.PRIVATE, *GROUP_TYPES):
        return None
    if addressed_elsewhere(text, bot_username):
        return None
    private = chat.type == Chat.PRIVATE
    command = command_of(text, private)
    edited = update.edited_message is not None
    identity = message_identity(message)
    if anonymous_admin(message):
        if edited:
            return None  # an anonymous admin casts no vote and has no private chat to tell
        return Incoming(platform=PLATFORM, update_id=str(update.update_id),
                        user=UserRef(anonymous_ref(chat.id), anonymous=True),
                        user_name=chat.title or str(chat.id), text=text,
                        command=command, chat=message_chat(message), admin=True,
                        chat_title=chat.title,
                        mentioned=mentioned(message), message=identity)
    if message.sender_chat is not None or message.is_automatic_forward:
        return None  # a channel speaking (a linked channel's post, a user posting as one)
    user = message.from_user
    if user is None or user.is_bot or user.id == TELEGRAM_SERVICE_USER:
        return None
    return Incoming(platform=PLATFORM, update_id=str(update.update_id),
                    user=UserRef(str(user.id)), user_name=display_name(user), text=text,
                    command=command, chat=None if private else message_chat(message), admin=admin,
                    locale_hint=locale_hint(user), handle=user.username,
                    chat_title=None if private else chat.title,
                    mentioned=mentioned(message, user), message=identity,
                    situation="edited" if edited else None,
                    edits=identity if edited else None)


def mentioned(message: Message, author: User | None = None) -> tuple[Mention, ...]:
    """Whom a message points at: the author of the message it replies to (a topic's own
    opening message aside, and the author's own), then the people its text names — picked
    from the @-list (`text_mention`: the exact account, for people without a username) or
    written as an @username (`mention`) — each with the words that name him."""
    people: list[Mention] = []
    replied = message.reply_to_message
    topic_opening = message.is_topic_message and replied is not None and \
        replied.forum_topic_created is not None
    if replied is not None and replied.from_user is not None and not topic_opening and \
            not replied.from_user.is_bot and \
            (author is None or replied.from_user.id != author.id):
        people.append(person(replied.from_user))
    for entity in message.entities or ():
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None \
                and not entity.user.is_bot:
            people.append(person(entity.user, message.parse_entity(entity)))
        elif entity.type == MessageEntity.MENTION:
            span = message.parse_entity(entity)
            people.append(Mention(None, span, handle=span.lstrip("@"), span=span))
    return tuple(people)


def person(user: User, span: str | None = None) -> Mention:
    return Mention(UserRef(str(user.id)), display_name(user), user.username, span)


def from_callback(update: Update) -> Incoming | None:
    """A pressed inline button: its data is an opaque token the service looks up."""
    query = update.callback_query
    if query is None or query.from_user.is_bot:
        return None
    message = query.message
    chat = message.chat if message is not None else None
    in_group = chat is not None and chat.type in GROUP_TYPES
    where = None
    if in_group and isinstance(message, Message):
        where = message_chat(message)
    elif in_group and chat is not None:
        where = chat_ref(chat.id)
    user = query.from_user
    return Incoming(platform=PLATFORM, update_id=str(update.update_id),
                    user=UserRef(str(user.id)), user_name=display_name(user), chat=where,
                    button=query.data or "",
                    locale_hint=locale_hint(user), handle=user.username)


def service_event(message: Message) -> ChatEvent | None:
    """What a service message says about the chat itself: it moved to a supergroup, or its
    forum topic was closed or reopened."""
    chat_id = message.chat.id
    if message.migrate_to_chat_id:
        return ChatEvent(PLATFORM, chat_ref(chat_id), ChatChange.MOVED,
                         new_ref=chat_ref(message.migrate_to_chat_id))
    if message.migrate_from_chat_id:
        return ChatEvent(PLATFORM, chat_ref(message.migrate_from_chat_id), ChatChange.MOVED,
                         new_ref=chat_ref(chat_id))
    if message.forum_topic_closed is not None:
        return ChatEvent(PLATFORM, message_chat(message), ChatChange.LOST,
                         reason=LostReason.TOPIC_CLOSED, whole=False)
    if message.forum_topic_reopened is not None:
        return ChatEvent(PLATFORM, message_chat(message), ChatChange.RESTORED, whole=False)
    return None


def member_events(update: ChatMemberUpdated, reads_all: bool = False) -> list[ChatEvent]:
    """The bot's own membership in a group changed (`my_chat_member`): removed or silenced
    means lost, back with the right to write means restored; and whether it may mute. Added
    to the group (it was not in it), it has arrived, lacking the rights `lacking` names
    (`reads_all`: its privacy mode is off)."""
    chat = update.chat
    if chat.type not in GROUP_TYPES:
        return []  # a private chat blocked or unblocked: sending there says so by itself
    ref = chat_ref(chat.id)
    member = update.new_chat_member
    if member.status in GONE:
        return [ChatEvent(PLATFORM, ref, ChatChange.LOST, reason=LostReason.REMOVED)]
    if member.status == ChatMemberStatus.RESTRICTED and not (
            getattr(member, "is_member", True) and getattr(member, "can_send_messages", True)):
        return [ChatEvent(PLATFORM, ref, ChatChange.LOST, reason=LostReason.SILENCED)]
    events = [ChatEvent(PLATFORM, ref, ChatChange.RESTORED),
              ChatEvent(PLATFORM, ref, ChatChange.RIGHTS, can_restrict=may_restrict(member))]
    if not in_chat(update.old_chat_member):
        events.append(ChatEvent(PLATFORM, ref, ChatChange.ARRIVED,
                                lacks=lacking(member, reads_all)))
    return events


def lacking(member: ChatMember, reads_all: bool) -> tuple[Lack, ...]:
    """The rights the bot misses in a group: muting the dead (ban users), deleting its
    outdated messages, and reading the talk (an admin reads everything; a member only with
    privacy mode off)."""
    owner = member.status == ChatMemberStatus.OWNER
    admin = owner or member.status == ChatMemberStatus.ADMINISTRATOR
    lacks = [] if may_restrict(member) else [Lack.MUTE]
    if not (owner or (admin and getattr(member, "can_delete_messages", False))):
        lacks.append(Lack.DELETE)
    if not (admin or reads_all):
        lacks.append(Lack.READ)
    return tuple(lacks)


def left_or_back(message: Message) -> list[Membership]:
    """A group's service message that a person left (`left_chat_member`: by himself when he
    sent it, else an admin removed him) or joined (`new_chat_members`, one per person; the
    bot's own and other bots' aside)."""
    chat = message.chat
    if chat.type not in GROUP_TYPES:
        return []
    ref, update = chat_ref(chat.id), f"m{chat.id}:{message.message_id}"  # whole chat
    gone = message.left_chat_member
    if gone is not None and not gone.is_bot:
        by = message.from_user
        return [MemberLeft(PLATFORM, update, ref, UserRef(str(gone.id)),
                           kicked=by is not None and by.id != gone.id)]
    return [MemberBack(PLATFORM, f"{update}:{user.id}", ref, UserRef(str(user.id)))
            for user in message.new_chat_members or () if not user.is_bot]


def member_news(update: ChatMemberUpdated, update_id: int) -> Membership | None:
    """A person's membership in a group changed (`chat_member`, sent to a bot that is an
    admin there and asked for it): out (left, or removed or banned by somebody else), or in
    again."""
    chat, member = update.chat, update.new_chat_member
    if chat.type not in GROUP_TYPES or member.user.is_bot:
        return None
    user, ref = UserRef(str(member.user.id)), chat_ref(chat.id)
    was_in = in_chat(update.old_chat_member)
    if was_in and not in_chat(member):
        kicked = member.status == ChatMemberStatus.BANNED or update.from_user.id != member.user.id
        return MemberLeft(PLATFORM, str(update_id), ref, user, kicked=kicked)
    if in_chat(member) and not was_in:
        return MemberBack(PLATFORM, str(update_id), ref, user)
    return None


def in_chat(member: ChatMember) -> bool:
    """A member of the chat (a restricted one included, while he is still in it)."""
    if member.status == ChatMemberStatus.RESTRICTED:
        return bool(getattr(member, "is_member", True))
    return member.status not in GONE


def may_restrict(member: ChatMember) -> bool:
    if member.status == ChatMemberStatus.OWNER:
        return True
    return member.status == ChatMemberStatus.ADMINISTRATOR and bool(
        getattr(member, "can_restrict_members", False))
