"""The event ids the bot has read (and handed over, if they were for the service), newest
kept: the sync skips what it has read, the receiver marks what it has handed over."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

SEEN_MEMORY = 20_000  # event ids remembered in memory (the service dedupes on all of them)


class Seen:
    def __init__(self, memory: int = SEEN_MEMORY) -> None:
        self.memory = memory
        self._ids: OrderedDict[str, None] = OrderedDict()

    def remember(self, event_id: Any) -> None:
        if isinstance(event_id, str):
            self._ids[event_id] = None
            while len(self._ids) > self.memory:
                self._ids.popitem(last=False)

    def __contains__(self, event_id: object) -> bool:
        return event_id in self._ids
