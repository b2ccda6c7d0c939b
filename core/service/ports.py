"""What the service and the adapters exchange: incoming updates, outgoing messages, errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Incoming:
    """One update from a platform, already stripped of platform types.

    `chat` is the group chat's ref, or None for a private message to the bot; `button` is the
    opaque token of a pressed button; `admin` says the platform knows the sender as a chat admin.
    """

    platform: str
    update_id: str
    user: str
    user_name: str
    text: str = ""
    chat: str | None = None
    button: str | None = None
    admin: bool = False
    locale_hint: str | None = None

    @property
    def private(self) -> bool:
        return self.chat is None


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A rendered message for an adapter to send; `buttons` are (label, token) rows."""

    outbox_id: int
    chat_ref: str
    private: bool
    text: str
    recipient: str | None = None  # the display name of a private message's reader
    buttons: tuple[tuple[str, str], ...] = field(default=())
    replace: str | None = None  # a newer version of the message with this key (edit in place)


@dataclass(frozen=True, slots=True)
class RateLimits:
    """Per-chat and global message rates an adapter's platform tolerates (messages/second)."""

    per_chat: float = 0.0  # 0 = unlimited
    overall: float = 0.0


class TransientError(Exception):
    """Sending failed but may work later (network, flood limit); `retry_after` if known."""

    def __init__(self, message: str = "", retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PermanentError(Exception):
    """Sending can never work (the user blocked the bot, the chat is gone)."""


class Adapter(Protocol):
    platform: str
    limits: RateLimits

    async def send(self, message: Outgoing) -> None:
        """Deliver one message or raise TransientError / PermanentError."""
        ...
