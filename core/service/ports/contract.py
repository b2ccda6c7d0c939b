"""What the service and the adapters exchange: refs, incoming updates, outgoing messages and
orders, errors.

Outgoing messages are typed: a `Post` (a text), a `Ballot` (the group's vote with its
options), a `Keyboard` (a message with buttons that is no vote); an adapter renders each kind
by a method of its own (`send_post`, `send_ballot`, `send_keyboard`), never by guessing from
a message's fields. Orders change a chat instead of posting to it: `Silence`, `TeamRoom`.

What people type is parsed by the adapter (`Command`): the service knows no command prefix.
The adapter itself, what every one has and what only some can do, is adapter.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Literal, NamedTuple

from .standing import Lack, LostReason


@dataclass(frozen=True, slots=True)
class ChatRef:
    """A group chat as its platform names it, or one topic of it (a Telegram forum topic:
    each topic is a chat of its own to the service, with its own game and language). What
    happens to a chat (it moves, the bot is removed) happens to all of its topics.

    Stored as text, `str(ref)`: "<chat>" or "<chat>#<topic>"; `ChatRef.parse` reads it back.
    """

    chat: str
    topic: str | None = None

    SEPARATOR: ClassVar[str] = "#"

    def __str__(self) -> str:
        return self.chat if self.topic is None else f"{self.chat}{self.SEPARATOR}{self.topic}"

    @classmethod
    def parse(cls, text: str) -> ChatRef:
        chat, _, topic = text.partition(cls.SEPARATOR)
        return cls(chat, topic or None)

    @property
    def whole(self) -> ChatRef:
        """The chat itself, without the topic."""
        return ChatRef(self.chat)

    def topics_prefix(self) -> str:
        """What the stored refs of this chat's topics begin with."""
        return f"{self.chat}{self.SEPARATOR}"


@dataclass(frozen=True, slots=True)
class UserRef:
    """A person as their platform names them (a Telegram user id, a Matrix user id).
    `anonymous`: no person the bot can write to, mute or invite stands behind it (a Telegram
    admin posting as the group); what is sent to them goes where they posted."""

    id: str
    anonymous: bool = False

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True, slots=True)
class Reader:
    """The one person a private message is for: who they are and the name they go by."""

    user: UserRef
    name: str


#: What a platform can tell the service about a person, for the service to tell them (and,
#: where it matters, their game's group): `edited` a message of theirs was edited (`Incoming.
#: edits` names it; edits never count, and a vote in an edited message is withdrawn, as the
#: forum rules say); `unreadable` the bot could not decrypt what they wrote;
#: `encrypted_room` the private room they opened is encrypted, so the bot writes to them in
#: its own; `invite_waiting` they have not accepted the bot's private room for a while;
#: `opened` they joined the private room they were invited to (or opened one with the bot):
#: what waited for them is sent now (see `Invited`), nobody is told anything.
Situation = Literal["edited", "unreadable", "encrypted_room", "invite_waiting", "opened"]


@dataclass(frozen=True, slots=True)
class Mention:
    """A person a message points at, as the platform knows him: the author of the message it
    replies to (`span` None), or a person named in its text (`span`: the words naming him, as
    they stand in the text — a Telegram `text_mention` picked from the @-list, which names the
    exact account, or an @username). Where the span stands in a command, it decides whom the
    command names, before any reading of the words (two players may share a name).
    `user` is None where the platform knows only the @username (`handle`)."""

    user: UserRef | None
    name: str
    handle: str | None = None
    span: str | None = None


@dataclass(frozen=True, slots=True)
class Command:
    """A command as a person gave it, parsed by the adapter from its platform's habits
    (`/vote@bot Ann` on Telegram, `!vote Ann` or `Bot: vote Ann` on Matrix): the `word`
    in lower case, without prefix or addressee, and the `args` after it."""

    word: str
    args: str = ""

    @classmethod
    def parse(cls, text: str, prefixes: str = "/") -> Command | None:
        """`<prefix>word args` as a command; None for a text that starts with none of the
        `prefixes`."""
        if not text or text[0] not in prefixes:
            return None
        word, _, args = text[1:].partition(" ")
        return cls(word.lower(), args.strip())


@dataclass(frozen=True, slots=True)
class TeamKey:
    """A game's team chat (engine `TeamChat`), stable for the game. Opaque to adapters:
    they keep it as `str(key)` and read it back with `TeamKey.parse`."""

    game: int
    chat: str

    SEPARATOR: ClassVar[str] = "/"

    def __str__(self) -> str:
        return f"{self.game}{self.SEPARATOR}{self.chat}"

    @classmethod
    def parse(cls, text: str) -> TeamKey:
        game, _, chat = text.partition(cls.SEPARATOR)
        return cls(int(game), chat)


@dataclass(frozen=True, slots=True)
class Incoming:
    """One update from a platform, already stripped of platform types.

    `user` is the sender (an anonymous one is not a person the bot can seat or write to: a
    Telegram admin posting as the group); `chat` is the group chat's ref, or None for a
    private message to the bot; `command` is what the text asks of the bot, parsed by the
    adapter (None for chatter, a whisper or a press); `button` is the opaque token of a
    pressed button; `admin`
    says the platform knows the sender as a chat admin; `team` is the key of the team room
    (see `TeamRoom`) the text was written in: the room's members read it there already, so
    it only counts as the sender's activity. `handle` is the sender's public @username, if
    the platform has one; `chat_title` the group's name. `mentioned`: the people the message
    points at (see `Mention`). `situation` is news about the person rather than a command
    (see `Situation`): the service tells them, and where it says so their game's group.
    `message` is the platform's id of the message (a Telegram chat and message id, a Matrix
    event id), the same for all of its versions; an edit (`situation` "edited") names the
    message it changed in `edits`, with the new text as `text`.
    """

    platform: str
    update_id: str
    user: UserRef
    user_name: str
    text: str = ""
    chat: ChatRef | None = None
    command: Command | None = None
    button: str | None = None
    admin: bool = False
    locale_hint: str | None = None
    team: TeamKey | None = None
    handle: str | None = None
    chat_title: str | None = None
    mentioned: tuple[Mention, ...] = ()
    situation: Situation | None = None
    message: str | None = None
    edits: str | None = None

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


# `urgent` on a message: the reader must act on it or learn what a window decided (a role
# card, a prompt, the vote's opening, a result, a reminder): platforms that keep a bot's
# ordinary messages quiet make this one notify. `asks`: the one person the message asks to
# act (open his private chat, accept an invitation, confirm, make his choice): he is
# notified wherever it goes, in the group by a mention of him (a Matrix pill), which rings
# where the group's other news stays quiet; a message that asks is urgent as well.
# `replace`: the message is a newer version of the one with this key (edited in place);
# every version of one message is of the same kind.


@dataclass(frozen=True, slots=True)
class Post:
    """A text, to a group (a topic of it) or to one person."""

    outbox_id: int
    to: ChatRef | Reader
    text: str
    replace: str | None = None
    urgent: bool = False
    asks: Reader | None = None


@dataclass(frozen=True, slots=True)
class Ballot:
    """The group's vote: the question (with the live tally, later the count that decided)
    and its options. Matrix shows it as polls, Telegram as an inline keyboard. The last
    version has no options: the vote is over (a poll ends, the keyboard goes)."""

    outbox_id: int
    to: ChatRef
    text: str
    options: tuple[ButtonOut, ...]
    replace: str  # the ballot's key: every version after the first edits it
    urgent: bool = False


@dataclass(frozen=True, slots=True)
class Keyboard:
    """A message with buttons that is no vote: a private prompt, a confirmation, the
    group's sign-up (its `start` buttons open the presser's private chat). A version
    without buttons closes it (the choice is over)."""

    outbox_id: int
    to: ChatRef | Reader
    text: str
    buttons: tuple[ButtonOut, ...]
    replace: str | None = None
    urgent: bool = False
    asks: Reader | None = None


@dataclass(frozen=True, slots=True)
class Picture:
    """An image with a caption (`text`), to a group or one person: the story of a finished
    game. `image` is PNG bytes, `name` its file name where a platform wants one. An adapter
    without `send_picture` is handed the caption as a `Post` instead."""

    outbox_id: int
    to: ChatRef | Reader
    image: bytes
    text: str
    name: str = "story.png"
    replace: str | None = None
    urgent: bool = False


Outgoing = Post | Ballot | Keyboard | Picture


@dataclass(frozen=True, slots=True)
class Silence:
    """Mute (or let speak again) a player in the group: the rules say the dead go silent.
    Adapters that cannot do it where they lack the rights simply return."""

    outbox_id: int
    chat: ChatRef
    user: UserRef
    muted: bool


@dataclass(frozen=True, slots=True)
class TeamRoom:
    """A team chat of a game (engine `TeamChat`) as it should be now: a platform whose bot
    can create rooms keeps one room per `key` with exactly these `members`, inviting and
    removing people to match; the others return, as their players talk through relays in
    private chats. `title` and `about` are rendered in the game's language."""

    outbox_id: int
    chat: ChatRef  # the game's group chat
    key: TeamKey
    title: str
    about: str
    members: tuple[UserRef, ...]
    # the game is over: `about` is a farewell posted in the room, which the bot then leaves
    # (the players keep it and may go on talking); `members` is empty
    closed: bool = False


Order = Silence | TeamRoom


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The message rates an adapter's platform tolerates; 0 means unlimited. Edits count as
    messages (Telegram spends one budget on both). A rate is a token bucket: `*_burst`
    messages may go back to back, then the rate refills it; a group's minute is a sliding
    window (Telegram counts the last sixty seconds). A burst is best declared a little below
    the platform's own: the outbox counts a send when it starts, the platform when it arrives."""

    per_chat: float = 0.0  # messages per second in any one chat
    overall: float = 0.0  # messages per second across all chats
    per_group_minute: int = 0  # messages per minute in one group chat
    chat_burst: int = 1  # messages back to back in one chat
    overall_burst: int = 1  # messages back to back across all chats


class ChatChange(StrEnum):
    """What happened to a group chat itself (a `ChatEvent`'s kind; an adapter package that
    still says it by its string is understood the same)."""

    # the chat has a new ref (`new_ref`; a Telegram group upgraded to a supergroup, a Matrix
    # room upgraded): its games, settings and waiting messages follow it
    MOVED = "moved"
    # the bot can no longer write there (`reason`: removed, silenced, closed or deleted
    # topic): its games pause and the host is told
    LOST = "lost"
    RESTORED = "restored"  # the bot can write there again
    RIGHTS = "rights"  # the bot's right to mute members changed (`can_restrict`)
    ARRIVED = "arrived"  # the bot was added to the chat; `lacks`, the rights it misses there


@dataclass(frozen=True, slots=True)
class ChatEvent:
    """Something happened to a group chat itself rather than in it (see `ChatChange`)."""

    platform: str
    chat: ChatRef
    kind: ChatChange
    new_ref: ChatRef | None = None
    lacks: tuple[Lack, ...] = ()
    reason: LostReason | None = None
    can_restrict: bool | None = None
    whole: bool = True  # the chat with all of its topics, or (False) this topic alone


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
    """The chat has a new ref (see `ChatChange.MOVED`); the message is to be sent there."""

    def __init__(self, message: str, new_ref: ChatRef) -> None:
        super().__init__(message, retry_after=None)
        self.new_ref = new_ref


class ChatLost(PermanentError):
    """The bot may no longer write in this group chat (see `ChatChange.LOST`)."""

    def __init__(self, message: str, reason: LostReason) -> None:
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


class Invited(Unreachable):
    """A person's private chat waits for him to accept the bot's new invitation to it (a
    Matrix room he had left): what is for him waits until the platform sees him join (the
    situation `opened`) or he writes. Nobody else is told: the invitation asks him."""
