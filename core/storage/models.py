"""The stored shape of Nightfall: chats, identities, games, their event log, the outbox,
deadlines, buttons and processed updates.

The event log is the source of truth; `Game.snapshot` is a cached projection checked against
a replay when a game is loaded.
"""

from __future__ import annotations

# Model docstrings become SQL table comments: keep semicolons out of them.
from tortoise import fields
from tortoise.models import Model


class Chat(Model):
    """A group chat on a platform, with its settings."""

    id = fields.IntField(primary_key=True)
    platform = fields.CharField(max_length=32)
    ref = fields.CharField(max_length=255)
    locale = fields.CharField(max_length=8, default="en")
    settings = fields.JSONField(default=dict)

    class Meta:
        table = "chat"
        unique_together = (("platform", "ref"),)


class Identity(Model):
    """A person's account on a platform."""

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


class Game(Model):
    """One game from sign-up to its end."""

    id = fields.IntField(primary_key=True)
    chat = fields.ForeignKeyField("models.Chat", related_name="games")
    ruleset = fields.CharField(max_length=64)
    status = fields.CharField(max_length=16, default="lobby", db_index=True)  # lobby|running|...
    host = fields.ForeignKeyField("models.Identity", related_name="hosted")
    settings = fields.JSONField(default=dict)  # pace, time zone, role list, options
    setup = fields.JSONField(null=True)  # the engine's GameSetup once started
    snapshot = fields.JSONField(null=True)
    build = fields.CharField(max_length=32, null=True)  # the code that wrote the snapshot
    version = fields.IntField(default=0)  # number of commands in the log
    window = fields.IntField(default=0)  # counts phase changes: stale buttons and deadlines
    paused_left = fields.FloatField(null=True)  # seconds left on the deadline while paused
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "game"


class Seat(Model):
    """A player of a game: identity, seat and engine player id."""

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.Game", related_name="seats", db_index=True)
    identity = fields.ForeignKeyField("models.Identity", related_name="seats", db_index=True)
    pid = fields.CharField(max_length=16)
    position = fields.IntField()
    active = fields.BooleanField(default=True)  # false once replaced or left the lobby

    class Meta:
        table = "seat"


class LogEntry(Model):
    """One accepted command and the events it caused, in order."""

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.Game", related_name="log")
    seq = fields.IntField()
    command = fields.JSONField()
    events = fields.JSONField()

    class Meta:
        table = "log_entry"
        unique_together = (("game", "seq"),)


class Outbox(Model):
    """A message waiting for delivery, rendered in its reader's language when delivered."""

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.Game", related_name="outbox", null=True)
    platform = fields.CharField(max_length=32)
    chat_ref = fields.CharField(max_length=255)  # the group chat, or a user's private chat
    private = fields.BooleanField(default=False)
    identity = fields.ForeignKeyField("models.Identity", related_name="inbox", null=True)
    payload = fields.JSONField()  # message key, plural, count, params, buttons
    status = fields.CharField(max_length=16, default="pending", db_index=True)  # pending|sent|...
    attempts = fields.IntField(default=0)
    next_try_at = fields.FloatField(default=0.0)
    worker = fields.CharField(max_length=40, null=True)  # who is sending it (several workers)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "outbox"


OPEN_DEADLINES = ("pending", "remind")  # not yet due: a window's close and its reminder
GIVE_UP = "giveup"  # the game's group has been unreachable too long: cancel it when due
DUE_STATES = (*OPEN_DEADLINES, GIVE_UP)


class Deadline(Model):
    """When the game's current window closes, or (state `remind`) when those it still waits
    for are reminded."""

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.Game", related_name="deadlines", db_index=True)
    window = fields.IntField()
    due_at = fields.FloatField(db_index=True)
    # pending|fired|void for the close; remind|reminded|void for the reminder before it;
    # giveup|fired|void for cancelling a game whose group stayed unreachable
    state = fields.CharField(max_length=16, default="pending", db_index=True)

    class Meta:
        table = "deadline"


class Button(Model):
    """An opaque token behind an inline button, resolved against stored state when pressed."""

    token = fields.CharField(max_length=32, primary_key=True)
    game = fields.ForeignKeyField("models.Game", related_name="buttons", db_index=True)
    window = fields.IntField()
    pid = fields.CharField(max_length=16, null=True)  # whose private keyboard, None = group
    label = fields.JSONField()  # {"text": ...} or {"key": msgid}
    command = fields.JSONField()

    class Meta:
        table = "button"


class ProcessedUpdate(Model):
    """Incoming platform updates already applied (a duplicate is applied once)."""

    id = fields.IntField(primary_key=True)
    platform = fields.CharField(max_length=32)
    update_id = fields.CharField(max_length=128)

    class Meta:
        table = "processed_update"
        unique_together = (("platform", "update_id"),)


class KeyValue(Model):
    """Small persistent settings of the service itself (the console's manual clock)."""

    key = fields.CharField(max_length=64, primary_key=True)
    value = fields.JSONField()

    class Meta:
        table = "key_value"
