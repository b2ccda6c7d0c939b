"""Telegram's errors as the outbox understands them.

Telegram says what went wrong in an error's description, so that is what is read here: the
bot removed from a group, no right to write there, a closed or deleted forum topic, a chat
that moved to a supergroup, a flood limit, a call that got no answer in time.
"""

from __future__ import annotations

import httpx
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from core.service import (
    ChatLost,
    ChatMoved,
    ChatRef,
    LostReason,
    NotAllowed,
    PermanentError,
    TransientError,
    UnknownOutcome,
    Unreachable,
    Untouchable,
)

SILENCED = ("not enough rights to send", "chat_write_forbidden", "have no rights to send",
            "need administrator rights in the channel chat", "chat_restricted")
TOPIC_CLOSED = ("topic_closed",)
TOPIC_DELETED = ("message thread not found", "topic_deleted", "topic_id_invalid")
NO_RESTRICT_RIGHTS = ("not enough rights to restrict", "chat_admin_required",
                      "method is available only for supergroups", "not enough rights")
UNMUTABLE = ("can't remove chat owner", "user is an administrator of the chat")
NOT_EDITABLE = ("message can't be edited", "message to edit not found",
                "message_id_invalid")


def _says(err: TelegramError, phrases: tuple[str, ...]) -> bool:
    text = str(err.message).lower()
    return any(phrase in text for phrase in phrases)


def not_editable(err: TelegramError) -> bool:
    return isinstance(err, BadRequest) and _says(err, NOT_EDITABLE)


def not_modified(err: TelegramError) -> bool:
    return isinstance(err, BadRequest) and "not modified" in str(err.message).lower()


def never_sent(err: TelegramError) -> bool:
    """A timeout before the request left (no connection made, or none free in the pool):
    nothing can have arrived, so even a new message is simply sent again."""
    return isinstance(err, TimedOut) and isinstance(
        err.__cause__, httpx.ConnectTimeout | httpx.PoolTimeout)


def retry_seconds(err: RetryAfter) -> float:
    retry = err.retry_after
    seconds = retry.total_seconds() if hasattr(retry, "total_seconds") else float(retry)
    return max(1.0, seconds)


def translate_error(err: TelegramError, private: bool, posting: bool = False) -> Exception:
    """`posting`: the call posts a new message (a timeout then leaves its outcome unknown;
    an edit or a mute can simply be repeated)."""
    if isinstance(err, RetryAfter):
        return TransientError(str(err), retry_after=retry_seconds(err))
    if isinstance(err, ChatMigrated):
        return ChatMoved(str(err), new_ref=ChatRef(str(err.new_chat_id)))
    if isinstance(err, TimedOut):
        return UnknownOutcome(str(err)) if posting and not never_sent(err) \
            else TransientError(str(err))
    if isinstance(err, Forbidden):
        return Unreachable(str(err)) if private else ChatLost(str(err), LostReason.REMOVED)
    if isinstance(err, BadRequest):
        if _says(err, ("chat not found",)):
            return Unreachable(str(err)) if private else ChatLost(str(err), LostReason.REMOVED)
        if not private:
            if _says(err, TOPIC_CLOSED):
                return ChatLost(str(err), LostReason.TOPIC_CLOSED)
            if _says(err, TOPIC_DELETED):
                return ChatLost(str(err), LostReason.TOPIC_DELETED)
            if _says(err, SILENCED):
                return ChatLost(str(err), LostReason.SILENCED)
        return PermanentError(str(err))
    if isinstance(err, NetworkError):
        return TransientError(str(err))
    return PermanentError(str(err))


def translate_restrict_error(err: TelegramError) -> Exception:
    """A mute or unmute: missing rights make it wait for them (`NotAllowed`); the group's
    owner and admins cannot be restricted at all (`Untouchable`)."""
    if isinstance(err, BadRequest) and _says(err, UNMUTABLE):
        return Untouchable(str(err))
    if isinstance(err, BadRequest) and _says(err, NO_RESTRICT_RIGHTS):
        return NotAllowed(str(err))
    return translate_error(err, private=False)
