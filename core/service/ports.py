"""What the service and the adapters exchange: incoming updates, outgoing messages, errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple, Protocol

#: A chat ref may name one thread of a chat (a Telegram forum topic): "<chat>#<thread>".
#: What happens to a chat (it moves, the bot is removed) happens to all of its threads.
THREAD_SEPARATOR = "#"


#: What a platform can tell the service about a person, for the service to tell them (and,
#: where it matters, their game's group): `edited` a command changed by an edit (edits never
#: count, as the forum rules say); `unreadable` the bot could not decrypt what they wrote;
#: `encrypted_room` the private room they opened is encrypted, so the bot writes to them in
#: its own; `invite_waiting` they have not accepted the bot's private room for a while.
Situation = Literal["edited", "unreadable", "encrypted_room", "invite_waiting"]


@dataclass(frozen=True, slots=True)
class Incoming:
    """One update from a platform, already stripped of platform types.

    `chat` is the group chat's ref, or None for a private message to the bot; `button` is the
    opaque token of a pressed button; `admin` says the platform knows the sender as a chat admin;
    `team` is the key of the team room (see `TeamRoom`) the text was written in: the room's
    members read it there already, so it only counts as the sender's activity. `anonymous`
    says the sender is not a person the bot can seat or write to (a Telegram admin posting as
    the group); `handle` is the sender's public @username, if the platform has one; `chat_title` the
    group's name. `situation` is news about the person rather than a command (see
    `Situation`): the service tells them, and where it says so their game's group.
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
    team: str | None = None
    anonymous: bool = False
    handle: str | None = None
    chat_title: str | None = None
    # the people the message points at, as the platform knows them: the author of the
    # message it replies to, then those it mentions — (user ref, display name, @username)
    mentioned: tuple[tuple[str, str, str | None], ...] = ()
    situation: Situation | None = None

    @property
    def private(self) -> bool:
        return self.chat is None


class Notice(NamedTuple):
    """What pressing a button did, for the presser alone, in their language: `taken` when
    the choice was accepted (a native poll shows that itself), else `text` says why not."""

    text: str
    taken: bool


class ButtonOut(NamedTuple):
    """One button under a message. A `start` button belongs to the presser's private chat
    (joining a game): platforms where a bot may not write first open that chat with it."""

    label: str
    token: str
    start: bool = False


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A rendered message for an adapter to send."""

    outbox_id: int
    chat_ref: str
    private: bool
    text: str
    recipient: str | None = None  # the display name of a private message's reader
    buttons: tuple[ButtonOut, ...] = field(default=())
    replace: str | None = None  # a newer version of the message with this key (edit in place)
    # the reader must act on it or learn what a window decided (a role card, a prompt, the
    # vote's opening, a result, a reminder): platforms that keep a bot's ordinary messages
    # quiet make this one notify
    urgent: bool = False


@dataclass(frozen=True, slots=True)
class Silence:
    """Mute (or let speak again) a player in the group: the rules say the dead go silent.
    Adapters that cannot do it where they lack the rights simply return."""

    outbox_id: int
    chat_ref: str
    user_ref: str
    muted: bool


@dataclass(frozen=True, slots=True)
class TeamRoom:
    """A team chat of a game (engine `TeamChat`) as it should be now: a platform whose bot
    can create rooms keeps one room per `key` with exactly these `members` (user refs),
    inviting and removing people to match; the others return, as their players talk through
    relays in private chats. `title` and `about` are rendered in the game's language."""

    outbox_id: int
    chat_ref: str  # the game's group chat
    key: str  # "<game id>/<team chat key>", stable for the game
    title: str
    about: str
    members: tuple[str, ...]
    # the game is over: `about` is a farewell posted in the room, which the bot then leaves
    # (the players keep it and may go on talking); `members` is empty
    closed: bool = False


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The message rates an adapter's platform tolerates; 0 means unlimited. Edits count as
    messages (Telegram spends one budget on both)."""

    per_chat: float = 0.0  # messages per second in any one chat
    overall: float = 0.0  # messages per second across all chats
    per_group_minute: int = 0  # messages per minute in one group chat


@dataclass(frozen=True, slots=True)
class ChatEvent:
    """Something happened to a group chat itself rather than in it.

    - `moved`: the chat has a new ref (`new_ref`; a Telegram group upgraded to a supergroup,
      a Matrix room upgraded): its games, settings and waiting messages follow it.
    - `lost`: the bot can no longer write there (`reason`: removed, silenced, closed or
      deleted topic): its games pause and the host is told.
    - `restored`: the bot can write there again.
    - `rights`: the bot's right to mute members changed (`can_restrict`).
    """

    platform: str
    chat_ref: str
    kind: Literal["moved", "lost", "restored", "rights"]
    new_ref: str | None = None
    reason: str | None = None
    can_restrict: bool | None = None
    whole: bool = True  # the chat with all of its threads, or (False) this thread alone


class TransientError(Exception):
    """Sending failed but may work later (network, flood limit); `retry_after` if known."""

    def __init__(self, message: str = "", retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PermanentError(Exception):
    """Sending can never work (the chat is gone, the message is malformed)."""


class UnknownOutcome(Exception):
    """The platform did not answer in time: the message may or may not have arrived. Sending
    it again could post it twice, so it is not resent (an edit may be: it is idempotent)."""


class ChatMoved(TransientError):
    """The chat has a new ref (see `ChatEvent` "moved"); the message is to be sent there."""

    def __init__(self, message: str, new_ref: str) -> None:
        super().__init__(message, retry_after=None)
        self.new_ref = new_ref


class ChatLost(PermanentError):
    """The bot may no longer write in this group chat (see `ChatEvent` "lost")."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class NotAllowed(PermanentError):
    """The bot lacks the right for an order (muting without admin rights): it is kept and
    carried out when the right comes back."""


class LoginRefused(Exception):
    """The platform refused the bot's credentials (a revoked token, a wrong password):
    trying again cannot help, so the process stops and says so in one line."""


class Unreachable(PermanentError):
    """A person's private chat is closed to the bot (never started it, or blocked it). The
    service tells the group once and sends what waits when the person writes to the bot."""


class Adapter(Protocol):
    """What the outbox needs of a platform. Optional: `cost(message) -> int`, how many
    platform messages one outgoing message becomes (a long text split in parts), for the rate
    limits; without it every message costs one. Optional: `command_prefix`, how people type
    a command there ("!" on Matrix): texts are rendered with it; without it, "/"."""

    platform: str
    limits: RateLimits

    async def send(self, message: Outgoing) -> None:
        """Deliver one message or raise TransientError / PermanentError / Unreachable."""
        ...

    async def silence(self, order: Silence) -> None:
        """Apply a mute or unmute, or raise as `send` does."""
        ...

    async def team(self, order: TeamRoom) -> None:
        """Create or update a team room, or return where the platform has none; raise as
        `send` does."""
        ...

    async def can_resend(self, chat_ref: str, replace: str | None) -> bool:
        """Whether sending a message again that may already have arrived (a crash came
        between handing it over and marking it sent) is harmless: an edit of a known message,
        or a send the platform deduplicates."""
        ...
