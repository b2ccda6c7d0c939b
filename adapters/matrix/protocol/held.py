"""The encrypted events that wait for their room key (see client/crypto.py), bounded: at most
PER_SENDER of one sender and TOTAL in all, the oldest dropped first. One sender whose
client never shares its keys (or who floods an encrypted room on purpose) thus holds at
most PER_SENDER events in the bot's memory, and cannot push out everybody else's."""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any, NamedTuple

log = logging.getLogger(__name__)

PER_SENDER = 20
TOTAL = 1000


class Held(NamedTuple):
    room_id: str
    event: dict[str, Any]  # the encrypted event's JSON
    since: float  # when it was first held (wall clock: it is stored across a restart)


class HeldEvents:
    """Held events by event id, oldest first."""

    def __init__(self, per_sender: int = PER_SENDER, total: int = TOTAL) -> None:
        self.per_sender = per_sender
        self.total = total
        self._events: OrderedDict[str, Held] = OrderedDict()
        self._by_sender: dict[str, list[str]] = {}  # event ids, oldest first
        self._capped: set[str] = set()  # senders whose cap was logged (once, until under it)

    def __len__(self) -> int:
        return len(self._events)

    def __contains__(self, event_id: object) -> bool:
        return event_id in self._events

    def items(self) -> list[tuple[str, Held]]:
        """A copy, oldest first (removing while going through it is fine)."""
        return list(self._events.items())

    def of(self, sender: str) -> int:
        """How many of this sender's events are held."""
        return len(self._by_sender.get(sender, ()))

    def add(self, event_id: str, held: Held) -> list[str]:
        """Hold an event (again: nothing changes); return the ids dropped to make room."""
        if event_id in self._events:
            return []
        sender = str(held.event.get("sender"))
        self._events[event_id] = held
        mine = self._by_sender.setdefault(sender, [])
        mine.append(event_id)
        dropped = []
        while len(mine) > self.per_sender:
            dropped.append(mine[0])
            self.remove(mine[0])
        if dropped and sender not in self._capped:
            self._capped.add(sender)
            log.warning("matrix: %s has %s undecryptable events held; older ones dropped "
                        "unread", sender, self.per_sender)
        while len(self._events) > self.total:
            oldest = next(iter(self._events))
            dropped.append(oldest)
            self.remove(oldest)
            log.warning("matrix: encrypted event %s dropped undecrypted", oldest)
        return dropped

    def remove(self, event_id: str) -> None:
        held = self._events.pop(event_id, None)
        if held is None:
            return
        sender = str(held.event.get("sender"))
        mine = self._by_sender.get(sender, [])
        if event_id in mine:
            mine.remove(event_id)
        if len(mine) < self.per_sender:
            self._capped.discard(sender)
        if not mine:
            self._by_sender.pop(sender, None)
