"""Telegram updates as the service's platform-neutral `Incoming` (pure functions, no I/O)."""

from __future__ import annotations

from telegram import Chat, Message, Update, User

from core.service.ports import Incoming

PLATFORM = "telegram"
GROUP_TYPES = (Chat.GROUP, Chat.SUPERGROUP)


def locale_hint(user: User | None) -> str | None:
    """Telegram's `language_code` is an IETF tag ("de", "ru", "en-GB"): we need the language."""
    code = (user.language_code if user else None) or ""
    return code.split("-")[0].lower() or None


def display_name(user: User) -> str:
    """What other players call this person: the name they chose in Telegram, never empty."""
    return user.full_name.strip() or (user.username or "") or str(user.id)


def addressed_elsewhere(text: str, bot_username: str) -> bool:
    """`/vote@otherbot Ann` is meant for another bot in the same group."""
    if not text.startswith("/"):
        return False
    word = text[1:].split(maxsplit=1)[0] if len(text) > 1 else ""
    _, at, target = word.partition("@")
    return bool(at) and target.lower() != bot_username.lower()


def anonymous_admin(message: Message) -> bool:
    """A group admin posting as the group itself ("remain anonymous")."""
    return message.sender_chat is not None and message.sender_chat.id == message.chat.id


def from_message(update: Update, message: Message, bot_username: str,
                 admin: bool) -> Incoming | None:
    """A new text message in a private chat or a group; None for what the game ignores
    (other bots, channels, service messages, commands for other bots)."""
    text = message.text or ""
    chat = message.chat
    if not text or chat.type not in (Chat.PRIVATE, *GROUP_TYPES):
        return None
    if addressed_elsewhere(text, bot_username):
        return None
    if chat.type != Chat.PRIVATE and text.split("@")[0].split()[0].lower() == "/start":
        text = "/help"  # "Start" pressed on the bot's profile inside a group
    if anonymous_admin(message):
        return Incoming(platform=PLATFORM, update_id=str(update.update_id),
                        user=f"chat{chat.id}", user_name=chat.title or str(chat.id), text=text,
                        chat=str(chat.id), admin=True)
    user = message.from_user
    if user is None or user.is_bot:
        return None
    return Incoming(platform=PLATFORM, update_id=str(update.update_id), user=str(user.id),
                    user_name=display_name(user), text=text,
                    chat=None if chat.type == Chat.PRIVATE else str(chat.id), admin=admin,
                    locale_hint=locale_hint(user))


def from_callback(update: Update) -> Incoming | None:
    """A pressed inline button: its data is an opaque token the service looks up."""
    query = update.callback_query
    if query is None or query.from_user.is_bot:
        return None
    chat = query.message.chat if query.message is not None else None
    in_group = chat is not None and chat.type in GROUP_TYPES
    return Incoming(platform=PLATFORM, update_id=str(update.update_id),
                    user=str(query.from_user.id), user_name=display_name(query.from_user),
                    chat=str(chat.id) if in_group and chat is not None else None,
                    button=query.data or "", locale_hint=locale_hint(query.from_user))
