"""The stored shape of Nightfall: chats, identities, games, their event log, the outbox,
deadlines, buttons and processed updates; what the service remembers of a game's messages
(ballots, offered keyboards, sign-up buttons, team rooms, what a group was told once); the
outbox's delivery lease; and what the adapters keep (`AdapterState`, `MessageRef`, handed to
them through `core.service.ports.adapter_store`, never imported by them).

The event log is the source of truth; `GameRecord.snapshot` is a cached projection checked
against a replay when a game is loaded. Whatever belongs to one game points at its row and
goes with it (ON DELETE CASCADE).
"""

from __future__ import annotations

# Model docstrings become SQL table comments: keep semicolons out of them.
from typing import Any

from tortoise import fields
from tortoise.models import Model

from .states import DeadlineKind, DeadlineState, GameStatus, OutboxState

# Every model says `_no_comments = True`: otherwise tortoise parses this module's source once per
# model, looking for "#:" field comments (there are none), which was 0.3 s of every start.

# the longest values some columns take (what is longer is forged, or kept by its hash)
TOKEN_LENGTH = 32  # a button's token
STATE_KEY_LENGTH = 255  # an adapter's record's key
MESSAGE_KEY_LENGTH = 128  # a platform message's key


class Chat(Model):
    """A group chat on a platform, with its settings."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    platform = fields.CharField(max_length=32)
    ref = fields.CharField(max_length=255)
    locale = fields.CharField(max_length=8, default="en")
    settings: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict)

    class Meta:
        table = "chat"
        unique_together = (("platform", "ref"),)


class Identity(Model):
    """A person's account on a platform."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    platform = fields.CharField(max_length=32)
    ref = fields.CharField(max_length=255)
    name = fields.CharField(max_length=255)
    locale = fields.CharField(max_length=8, null=True)
    locale_hint = fields.CharField(max_length=8, null=True)
    handle = fields.CharField(max_length=64, null=True)  # the public @username, if any
    # not a person: a Telegram admin posting as the group (may host, never plays, has no
    # private chat)
    anonymous = fields.BooleanField(default=False)

    class Meta:
        table = "identity"
        unique_together = (("platform", "ref"),)


class GameRecord(Model):
    """One game from sign-up to its end (the engine's `Game` is its live state)."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    chat: fields.ForeignKeyRelation[Chat] = fields.ForeignKeyField(
        "models.Chat", related_name="games")
    chat_id: int
    ruleset = fields.CharField(max_length=64)
    status = fields.CharField(max_length=16, default=GameStatus.LOBBY.value, db_index=True)
    host: fields.ForeignKeyRelation[Identity] = fields.ForeignKeyField(
        "models.Identity", related_name="hosted")
    host_id: int
    # pace, time zone, role list, options
    settings: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict)
    # the engine's GameSetup once started
    setup: fields.JSONField[dict[str, Any] | None] = fields.JSONField(null=True)
    snapshot: fields.JSONField[dict[str, Any] | None] = fields.JSONField(null=True)
    build = fields.CharField(max_length=32, null=True)  # the code that wrote the snapshot
    version = fields.IntField(default=0)  # number of commands in the log
    window = fields.IntField(default=0)  # counts phase changes: stale buttons and deadlines
    paused_left = fields.FloatField(null=True)  # seconds left on the deadline while paused
    # the archive page's address once the game is over: random, so that nobody finds the
    # pages of other chats' games by counting ids (core/story/archive.py)
    archive_token = fields.CharField(max_length=32, null=True, db_index=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "game"
        # every command finds its chat's game by chat and status
        indexes = (("chat_id", "status"),)


class Seat(Model):
    """A player of a game: identity, seat and engine player id."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="seats", db_index=True)
    game_id: int
    identity: fields.ForeignKeyRelation[Identity] = fields.ForeignKeyField(
        "models.Identity", related_name="seats", db_index=True)
    identity_id: int
    pid = fields.CharField(max_length=16)
    position = fields.IntField()
    active = fields.BooleanField(default=True)  # false once replaced or left the lobby

    class Meta:
        table = "seat"


class LogEntry(Model):
    """One accepted command and the events it caused, in order."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="log")
    game_id: int
    seq = fields.IntField()
    command: fields.JSONField[dict[str, Any]] = fields.JSONField()
    events: fields.JSONField[list[Any]] = fields.JSONField()

    class Meta:
        table = "log_entry"
        unique_together = (("game", "seq"),)


class Outbox(Model):
    """A message waiting for delivery, rendered in its reader's language when delivered."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyNullableRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="outbox", null=True)
    game_id: int | None
    platform = fields.CharField(max_length=32)
    chat_ref = fields.CharField(max_length=255)  # the group chat, or a user's private chat
    private = fields.BooleanField(default=False)
    identity: fields.ForeignKeyNullableRelation[Identity] = fields.ForeignKeyField(
        "models.Identity", related_name="inbox", null=True)
    identity_id: int | None
    # message key, plural, count, params, buttons
    payload: fields.JSONField[dict[str, Any]] = fields.JSONField()
    # an OutboxState (states.py: what each state means, and the changes allowed)
    status = fields.CharField(max_length=16, default=OutboxState.PENDING.value, db_index=True)
    attempts = fields.IntField(default=0)
    next_try_at = fields.FloatField(default=0.0)
    worker = fields.CharField(max_length=40, null=True)  # who is sending it (several workers)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "outbox"


class Deadline(Model):
    """When the game's current window closes, when those it still waits for are reminded,
    when a game whose group stayed unreachable is given up, or when a player who left the
    game's chat leaves the game unless he came back (its kind; that one names his `seat`)."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="deadlines", db_index=True)
    game_id: int
    window = fields.IntField()
    due_at = fields.FloatField(db_index=True)
    # a DeadlineKind and a DeadlineState (states.py: what each means, the changes allowed)
    kind = fields.CharField(max_length=16, default=DeadlineKind.CLOSE.value,
                            db_default=DeadlineKind.CLOSE.value)  # on rows from before 0010
    state = fields.CharField(max_length=16, default=DeadlineState.PENDING.value, db_index=True)
    seat: fields.ForeignKeyNullableRelation[Seat] = fields.ForeignKeyField(
        "models.Seat", related_name="deadlines", null=True)
    seat_id: int | None

    class Meta:
        table = "deadline"


class Button(Model):
    """An opaque token behind an inline button, resolved against stored state when pressed."""

    _no_comments = True  # (see the top)

    token = fields.CharField(max_length=TOKEN_LENGTH, primary_key=True)
    game: fields.ForeignKeyRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="buttons", db_index=True)
    game_id: int
    window = fields.IntField()
    pid = fields.CharField(max_length=16, null=True)  # whose private keyboard, None = group
    label: fields.JSONField[dict[str, Any]] = fields.JSONField()  # {"text": ...} or {"key": msgid}
    command: fields.JSONField[dict[str, Any]] = fields.JSONField()

    class Meta:
        table = "button"


class ProcessedUpdate(Model):
    """Incoming platform updates already applied (a duplicate is applied once)."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    platform = fields.CharField(max_length=32)
    update_id = fields.CharField(max_length=128)

    class Meta:
        table = "processed_update"
        unique_together = (("platform", "update_id"),)


class Ballot(Model):
    """The buttons of a window's group vote: the live tally and the closing count edit the
    message they are under."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="ballots")
    game_id: int
    window = fields.IntField()
    # [{"label": ..., "token": ..., "start": ...}]
    buttons: fields.JSONField[list[Any]] = fields.JSONField()

    class Meta:
        table = "ballot"
        unique_together = (("game", "window"),)


class Prompt(Model):
    """A private keyboard offered to a player in a window: edited to show the choice made,
    closed with the window (the rows go then), handed on with a replaced seat."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)  # the order they were offered in
    game: fields.ForeignKeyRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="prompts")
    game_id: int
    window = fields.IntField()
    identity: fields.ForeignKeyRelation[Identity] = fields.ForeignKeyField(
        "models.Identity", related_name="prompts")
    identity_id: int
    message_key = fields.CharField(max_length=128)  # the outbox's `replace` key of its message
    # the prompt's text, without its buttons
    payload: fields.JSONField[dict[str, Any]] = fields.JSONField()

    class Meta:
        table = "prompt"
        indexes = (("game_id", "window"),)


class SignupButtons(Model):
    """The join and leave buttons under a game's sign-up message (made once, kept while
    the list is edited)."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    game: fields.OneToOneRelation[GameRecord] = fields.OneToOneField(
        "models.GameRecord", related_name="signup_buttons")
    game_id: int
    buttons: fields.JSONField[list[Any]] = fields.JSONField()

    class Meta:
        table = "signup_buttons"


class KnownTeamRoom(Model):
    """A team chat of a game that got a room, with its title: each says goodbye when the
    game ends."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)  # the order the rooms were opened in
    game: fields.ForeignKeyRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="team_rooms")
    game_id: int
    key = fields.CharField(max_length=64)  # the engine's team chat key
    title = fields.CharField(max_length=255)

    class Meta:
        table = "team_room"
        unique_together = (("game", "key"),)


class Told(Model):
    """A group was told something about a person once, not to be told again: `unreachable`
    (the person's private chat is closed to the bot; gone when he writes to it) or a
    `ports.Situation`."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    kind = fields.CharField(max_length=32)
    chat: fields.ForeignKeyNullableRelation[Chat] = fields.ForeignKeyField(
        "models.Chat", related_name="told", null=True)
    chat_id: int | None
    game: fields.ForeignKeyNullableRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="told", null=True)
    game_id: int | None
    identity: fields.ForeignKeyRelation[Identity] = fields.ForeignKeyField(
        "models.Identity", related_name="told")
    identity_id: int

    class Meta:
        table = "told"
        indexes = (("identity_id", "kind"),)


class DeliveryLease(Model):
    """Which of several workers on one database delivers the outbox, and until when (it
    renews the lease while alive)."""

    _no_comments = True  # (see the top)

    name = fields.CharField(max_length=32, primary_key=True)
    worker = fields.CharField(max_length=40, default="")
    until = fields.FloatField(default=0.0)

    class Meta:
        table = "delivery_lease"


class AdapterState(Model):
    """A small JSON value an adapter keeps across restarts (a sync token, a private room
    map), in its platform's namespace."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    platform = fields.CharField(max_length=32)
    namespace = fields.CharField(max_length=32)
    key = fields.CharField(max_length=STATE_KEY_LENGTH)
    # {"v": value}: the field takes a bare string for JSON text
    value: fields.JSONField[Any] = fields.JSONField()

    class Meta:
        table = "adapter_state"
        unique_together = (("platform", "namespace", "key"),)


class MessageRef(Model):
    """Which platform messages show one of our messages that is edited in place (a chat
    and the outbox's `replace` key): Telegram's message ids of its parts, Matrix's event."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    platform = fields.CharField(max_length=32)
    chat_ref = fields.CharField(max_length=255)
    key = fields.CharField(max_length=MESSAGE_KEY_LENGTH)
    ids: fields.JSONField[list[Any]] = fields.JSONField()  # the platform's message ids, in order
    # what else the platform needs to edit it
    detail: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict)

    class Meta:
        table = "message_ref"
        unique_together = (("platform", "chat_ref", "key"),)


class VoteMessage(Model):
    """The message that cast a player's current vote (a Telegram message, a Matrix event):
    the forum rule says a vote in an edited message does not count, so an edit of that
    message withdraws the vote, unless the log shows a later vote of his (a button, /unvote):
    kept until then rather than deleted at every vote, which would cost each button press a
    statement."""

    _no_comments = True  # (see the top)

    id = fields.IntField(primary_key=True)
    game: fields.ForeignKeyRelation[GameRecord] = fields.ForeignKeyField(
        "models.GameRecord", related_name="vote_messages")
    game_id: int
    pid = fields.CharField(max_length=16)
    window = fields.IntField()  # the vote's window: a later window's vote is another one
    message = fields.CharField(max_length=255)  # the platform's id of the message
    seq = fields.IntField()  # the vote's log entry: a later vote of his replaced it

    class Meta:
        table = "vote_message"
        unique_together = (("game", "pid"),)
