"""Pacing the outbox: the message rates each platform tolerates, per chat, per group and
overall, kept in the delivering worker's memory."""

from __future__ import annotations

from collections import deque

from ..ports.adapter import Adapter


class RateLimiter:
    """Minimum spacing between messages per chat and overall, and a sliding one-minute
    budget per group chat, per platform."""

    def __init__(self) -> None:
        self.last_chat: dict[tuple[str, str], float] = {}
        self.last_overall: dict[str, float] = {}
        self.group_minute: dict[tuple[str, str], deque[float]] = {}
        self.held: dict[tuple[str, str], float] = {}

    def hold(self, platform: str, chat_ref: str, until: float) -> None:
        """The platform asked us to wait (a flood limit): nothing goes to that chat before."""
        key = (platform, chat_ref)
        self.held[key] = max(until, self.held.get(key, until))

    def allow(self, adapter: Adapter, chat_ref: str, private: bool, now: float) -> bool:
        limits = adapter.limits
        key = (adapter.platform, chat_ref)
        if self.held.get(key, -1e18) > now:
            return False
        if limits.per_chat and now - self.last_chat.get(key, -1e18) < 1 / limits.per_chat:
            return False
        if limits.overall and now - self.last_overall.get(adapter.platform, -1e18) < (
                1 / limits.overall):
            return False
        recent = self.group_minute.setdefault(key, deque()) if not private else None
        if recent is not None and limits.per_group_minute:
            while recent and now - recent[0] >= 60:
                recent.popleft()
            if len(recent) >= limits.per_group_minute:
                return False
            recent.append(now)
        self.last_chat[key] = now
        self.last_overall[adapter.platform] = now
        return True

    def spend(self, adapter: Adapter, chat_ref: str, private: bool, now: float,
              extra: int) -> None:
        """A message that was sent as `extra` more platform messages than one: the chat and
        the platform wait that much longer before the next."""
        limits = adapter.limits
        key = (adapter.platform, chat_ref)
        if limits.per_chat:
            self.last_chat[key] = self.last_chat.get(key, now) + extra / limits.per_chat
        if limits.overall:
            self.last_overall[adapter.platform] = (
                self.last_overall.get(adapter.platform, now) + extra / limits.overall)
        recent = self.group_minute.get(key) if not private else None
        if recent is not None and limits.per_group_minute:
            recent.extend([now] * extra)
