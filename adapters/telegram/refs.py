"""How Telegram chats appear to the service as chat refs.

A group's ref is its chat id; a forum topic's is a `ChatRef` with the thread id as its topic
(each topic is a chat of its own to the service: its own game, its own language). The
General topic of a forum has no thread id, so it is the group's plain ref. A person's ref is
their user id, which is also their private chat's id. An admin posting as the group
(anonymous) is a person of its own, "anon<chat id>", with no private chat: what the service
sends that person goes to the group where they posted.
"""

from __future__ import annotations

from core.service import ChatRef, PermanentError, UserRef

ANONYMOUS = "anon"


def chat_ref(chat_id: int, thread_id: int | None = None) -> ChatRef:
    return ChatRef(str(chat_id), str(thread_id) if thread_id else None)


def chat_ids(chat: ChatRef) -> tuple[int, int | None]:
    """(chat id, thread id or None) of a ref; PermanentError for a ref that is no chat (a
    seat given to an account that is not on Telegram, say)."""
    try:
        return int(chat.chat), int(chat.topic) if chat.topic else None
    except ValueError:
        raise PermanentError(f"not a Telegram chat: {chat}") from None


def user_id(user: UserRef) -> int:
    """A person's Telegram user id; PermanentError for a ref that is none."""
    try:
        return int(user.id)
    except ValueError:
        raise PermanentError(f"not a Telegram user: {user}") from None


def anonymous_ref(chat_id: int) -> str:
    return f"{ANONYMOUS}{chat_id}"


def anonymous_chat(ref: str) -> int | None:
    """The group an anonymous admin's ref belongs to, or None for any other ref."""
    if not ref.startswith(ANONYMOUS):
        return None
    try:
        return int(ref[len(ANONYMOUS):])
    except ValueError:
        return None
