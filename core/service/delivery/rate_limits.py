"""Pacing the outbox: each platform's budgets (per chat, per group minute, overall) read
against the time of each send, and the waits the platform itself asked for (a flood limit's
`retry_after`), kept in the delivering worker's memory.

The platform counts a message when it arrives, somewhere between the start of our send and
its answer. So the budgets of one chat (whose sends never overlap: each chat's rows go one
after the other) count a send as late as the platform can: the chat's bucket refills nothing
while a send is under way, and the group's minute holds the time of the answer. The overall
bucket cannot (sends to different chats overlap); its margin is a burst declared below the
platform's (`RateLimits`).

A group's minute keeps a share for edits of messages already posted (EDIT_SHARE: a ballot's
tally, edited in place as votes come): new posts may fill only the rest of it, so a burst of
posts (a window's opening) never leaves a vote's tally waiting for the minute to pass.
"""

from __future__ import annotations

from collections import deque

from ..ports.adapter import Adapter
from ..ports.contract import RateLimits

MINUTE = 60.0
FLOOD_SPREAD = 1.0  # seconds: flood limits in two chats this close are the platform's overall
# seconds at most that such an inferred overall limit holds every chat (the refused chats wait
# their whole retry_after; two groups refused by their own minutes must not stop the bot)
PLATFORM_HOLD = 5.0
EDIT_SHARE = 0.3  # of a group's minute: kept for edits in place, new posts never spend it


class Bucket:
    """A token bucket: `capacity` messages back to back, refilled at `rate` a second."""

    def __init__(self, rate: float, capacity: int, now: float) -> None:
        self.rate = rate
        self.capacity = float(max(1, capacity))
        self.tokens = self.capacity
        self.stamp = now

    def _fill(self, now: float) -> None:
        if now > self.stamp:
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now

    def wait(self, now: float) -> float:
        """Seconds until one message may go (0: now)."""
        self._fill(now)
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self, now: float, count: float = 1.0) -> None:
        """Spend `count` messages (the bucket may go below zero: a long text's parts)."""
        self._fill(now)
        self.tokens -= count

    def settle(self, now: float) -> None:
        """A send that began with `take` got its answer: what would have refilled while it
        was under way is not counted (the platform may have counted it only now)."""
        self.stamp = max(self.stamp, now)

    def full(self, now: float) -> bool:
        self._fill(now)
        return self.tokens >= self.capacity


class GroupMinute:
    """The messages a group chat received in the last minute (a sliding window, as Telegram
    counts it), by the time of their answers."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.times: deque[float] = deque()

    def wait(self, now: float, kept: int = 0) -> float:
        """Seconds until one more message may go, when `kept` of the minute are not to be
        spent by it (at least one always may)."""
        while self.times and self.times[0] <= now - MINUTE:
            self.times.popleft()
        limit = max(1, self.limit - kept)
        if len(self.times) < limit:
            return 0.0
        return self.times[len(self.times) - limit] + MINUTE - now

    def record(self, now: float, count: int) -> None:
        self.times.extend([now] * count)

    def empty(self, now: float) -> bool:
        self.wait(now)
        return not self.times


class RateLimiter:
    """Every platform's budgets: a bucket per chat and one overall, a minute per group chat,
    and the waits a platform asked for, per chat or (a flood limit in several chats at
    once) for all of it."""

    def __init__(self) -> None:
        self.chats: dict[tuple[str, str], Bucket] = {}
        self.overall: dict[str, Bucket] = {}
        self.minutes: dict[tuple[str, str], GroupMinute] = {}
        self.held: dict[tuple[str, str], float] = {}
        self.platform_held: dict[str, float] = {}
        self.last_flood: dict[str, tuple[str, float]] = {}  # the chat and time of the last

    def wait(self, adapter: Adapter, chat_ref: str, private: bool, now: float,
             edit: bool = False) -> float:
        """Seconds until a message may go to this chat (0: now); a new post leaves a group's
        share for edits in place (`edit`: a message already posted changed) unspent."""
        limits, key = adapter.limits, (adapter.platform, chat_ref)
        waits = [self.platform_wait(adapter, now), self.held.get(key, now) - now]
        if limits.per_chat:
            waits.append(self._chat(limits, key, now).wait(now))
        if limits.per_group_minute and not private:
            kept = 0 if edit else round(limits.per_group_minute * EDIT_SHARE)
            waits.append(self._minute(limits, key).wait(now, kept))
        return max(0.0, *waits)

    def platform_wait(self, adapter: Adapter, now: float) -> float:
        """Seconds until a message may go to any chat of the platform (0: now)."""
        wait = self.platform_held.get(adapter.platform, now) - now
        if adapter.limits.overall:
            wait = max(wait, self._overall(adapter.limits, adapter.platform, now).wait(now))
        return max(0.0, wait)

    def begin(self, adapter: Adapter, chat_ref: str, now: float) -> None:
        """A send starts: one message of the chat's and the platform's buckets."""
        limits, key = adapter.limits, (adapter.platform, chat_ref)
        if limits.per_chat:
            self._chat(limits, key, now).take(now)
        if limits.overall:
            self._overall(limits, adapter.platform, now).take(now)

    def end(self, adapter: Adapter, chat_ref: str, private: bool, now: float,
            parts: int = 1) -> None:
        """A send that began got its answer (whatever it was) after `parts` platform
        messages: the parts beyond the first spent too, the group's minute counted now."""
        limits, key = adapter.limits, (adapter.platform, chat_ref)
        extra = max(0, parts - 1)
        if limits.per_chat:
            bucket = self._chat(limits, key, now)
            bucket.settle(now)
            bucket.take(now, extra)
        if limits.overall and extra:
            self._overall(limits, adapter.platform, now).take(now, extra)
        if limits.per_group_minute and not private:
            self._minute(limits, key).record(now, max(1, parts))

    def hold(self, platform: str, chat_ref: str, until: float, now: float) -> bool:
        """The platform asked us to wait (a flood limit): nothing goes to that chat before
        `until`; when another chat was told to wait just before, the platform's overall
        budget is spent: nothing goes to any of its chats. Whether it is the platform's."""
        key = (platform, chat_ref)
        self.held[key] = max(until, self.held.get(key, until))
        chat, at = self.last_flood.get(platform, ("", -FLOOD_SPREAD))
        self.last_flood[platform] = (chat_ref, now)
        if chat != chat_ref and now - at < FLOOD_SPREAD:
            until = min(until, now + PLATFORM_HOLD)
            self.platform_held[platform] = max(until, self.platform_held.get(platform, until))
            return True
        return False

    def forget_idle(self, now: float) -> None:
        """Chats whose budgets are whole again are as good as new: not kept."""
        for key in [k for k, bucket in self.chats.items() if bucket.full(now)]:
            del self.chats[key]
        for key in [k for k, minute in self.minutes.items() if minute.empty(now)]:
            del self.minutes[key]
        for key in [k for k, until in self.held.items() if until <= now]:
            del self.held[key]

    def _chat(self, limits: RateLimits, key: tuple[str, str], now: float) -> Bucket:
        bucket = self.chats.get(key)
        if bucket is None:
            bucket = self.chats[key] = Bucket(limits.per_chat, limits.chat_burst, now)
        return bucket

    def _overall(self, limits: RateLimits, platform: str, now: float) -> Bucket:
        bucket = self.overall.get(platform)
        if bucket is None:
            bucket = self.overall[platform] = Bucket(limits.overall, limits.overall_burst, now)
        return bucket

    def _minute(self, limits: RateLimits, key: tuple[str, str]) -> GroupMinute:
        minute = self.minutes.get(key)
        if minute is None:
            minute = self.minutes[key] = GroupMinute(limits.per_group_minute)
        return minute
