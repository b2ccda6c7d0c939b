"""Riding out a platform outage: a message that failed for a reason that may pass (a server
error, a network error, a timeout before the request left, a flood limit) is retried until
the platform answers again, however long that takes — a role card lost to a ten-minute
Telegram or homeserver outage is a broken game, a late one is not. Only a permanent error
gives a message up (the deliverer then tells the host, see telling/undelivered.py).

Three rules, kept here so the deliverer only asks:
- a row's back-off doubles from BACKOFF_FIRST to BACKOFF_CAP seconds, or is what the platform
  asked for (`retry_after`);
- a platform that failed REST_AFTER times in a row with nothing delivered between "rests":
  nothing is handed to it until its own back-off (doubling the same way) has passed, so an
  outage costs one probe per rest, not a request per waiting message;
- a chat with a row in back-off receives nothing newer until that row went (`backed_off`): a
  role card is never overtaken by the announcement written after it;
- a row that keeps failing "transiently" while the platform delivers everything else is no
  outage but a message the platform cannot take (`stuck`): after STUCK_ATTEMPTS it is given
  up like a permanent failure, so that it does not hold its chat's later messages forever.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from core.storage.models import Outbox
from core.storage.states import OutboxState

log = logging.getLogger(__name__)

BACKOFF_FIRST = 2.0
BACKOFF_CAP = 60.0
REST_AFTER = 3  # failures in a row that make a platform rest
STUCK_ATTEMPTS = 30  # about half an hour of back-off
ANSWERING = 600.0  # a platform that delivered something this recently is up


def backoff(failures: int) -> float:
    """Seconds to wait after the `failures`-th failure in a row (1, 2, …): 2, 4, 8 … 60."""
    return min(BACKOFF_CAP, BACKOFF_FIRST * 2.0 ** max(0, min(failures - 1, 16)))


def retry_at(now: float, attempts: int, retry_after: float | None) -> float:
    """When a row that has failed `attempts` times is tried again: the platform's wish if it
    said one, else the capped back-off."""
    return now + (retry_after if retry_after else backoff(attempts))


@dataclass
class _Platform:
    streak: int = 0  # transient failures since the last delivery
    rests_until: float = 0.0
    answered_at: float | None = None  # the last delivery


class Outages:
    """What each platform's recent failures say about it: answering, or resting."""

    def __init__(self, rest_after: int = REST_AFTER) -> None:
        self.rest_after = rest_after
        self._platforms: dict[str, _Platform] = {}

    def resting(self, platform: str, now: float) -> bool:
        """Whether nothing is to be handed to this platform now."""
        state = self._platforms.get(platform)
        return state is not None and state.rests_until > now

    def resting_until(self, platform: str) -> float:
        """Until when nothing is to be handed to this platform (0: it is not resting)."""
        state = self._platforms.get(platform)
        return state.rests_until if state is not None else 0.0

    def failing(self, platform: str) -> bool:
        """Whether its last delivery failed (nothing went since): it is probed, one send at
        a time, rather than handed every chat's next message at once."""
        state = self._platforms.get(platform)
        return state is not None and state.streak > 0

    def down(self, platform: str) -> bool:
        """Whether the platform is in an outage: REST_AFTER failures in a row and nothing
        delivered since. Wider than `resting`, which lapses between two probes (and stays
        lapsed while an adapter that is not connected is not probed at all): this is what a
        host watching /metrics wants to see."""
        state = self._platforms.get(platform)
        return state is not None and state.streak >= self.rest_after

    def failed(self, platform: str, now: float, retry_after: float | None = None) -> None:
        """A transient failure. A flood limit (`retry_after`) is the platform answering and
        pacing one chat: it makes no streak. Anything else does, and REST_AFTER of them
        make the platform rest."""
        if retry_after:
            return
        state = self._platforms.setdefault(platform, _Platform())
        state.streak += 1
        if state.streak >= self.rest_after:
            pause = backoff(state.streak - self.rest_after + 1)
            state.rests_until = now + pause
            if state.streak == self.rest_after:  # once: it went down
                log.warning("%s: %s failures in a row; it rests, probed every %.0f to %.0f s "
                            "until it answers", platform, state.streak, pause, BACKOFF_CAP)

    def answered(self, platform: str, now: float) -> None:
        """A delivery went through: the platform is back."""
        state = self._platforms.setdefault(platform, _Platform())
        state.answered_at = now
        if state.streak >= self.rest_after:
            log.warning("%s answers again after %s failures in a row", platform, state.streak)
        state.streak, state.rests_until = 0, 0.0

    def stuck(self, platform: str, attempts: int, now: float,
              retry_after: float | None = None) -> bool:
        """Whether a row that failed transiently `attempts` times is failing on its own: the
        platform delivered other messages lately (a flood limit is the platform pacing a
        chat, never this)."""
        state = self._platforms.get(platform)
        return (not retry_after and attempts >= STUCK_ATTEMPTS and state is not None
                and state.answered_at is not None and now - state.answered_at < ANSWERING)


async def backed_off(platforms: list[str], now: float) -> set[tuple[str, str]]:
    """The chats (platform, chat ref) with a row waiting out its back-off: nothing newer goes
    to them before it."""
    rows = await (Outbox.filter(status=OutboxState.PENDING, next_try_at__gt=now,
                                platform__in=platforms)
                  .distinct().values_list("platform", "chat_ref"))
    return {(str(platform), str(ref)) for platform, ref in rows}
