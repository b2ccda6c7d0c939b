"""How the bot stands in a group chat, in platform-neutral words: why it can no longer write
there (`LostReason`) and the rights it misses there (`Lack`), which the service names with
their costs when it greets a new group; how to give each right is the adapter's
(ports/howto.py)."""

from __future__ import annotations

from enum import StrEnum


class LostReason(StrEnum):
    """Why the bot can no longer write in a group chat (the stored words unchanged): the
    host is told which, and a topic's loss leaves the rest of the chat alone."""

    REMOVED = "removed"
    SILENCED = "silenced"
    TOPIC_CLOSED = "topic_closed"
    TOPIC_DELETED = "topic_deleted"

    @property
    def whole(self) -> bool:
        """Whether the whole chat is lost, not one topic of it."""
        return self not in (LostReason.TOPIC_CLOSED, LostReason.TOPIC_DELETED)


class Lack(StrEnum):
    """A right the bot misses in a group, each costing the game something (`ChatEvent`)."""

    MUTE = "mute"  # muting the players who are out
    DELETE = "delete"  # deleting its own outdated messages
    READ = "read"  # reading the group's talk (Telegram's privacy mode), which counts as activity
