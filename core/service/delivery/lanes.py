"""A delivery round's sends: in parallel across chats, strictly in order within a chat.

Each chat is a lane: its rows in the order they were written, one send at a time, except that
an edit of a message already posted (a ballot's tally) goes before the lane's new posts: it
changes that message in place, so only the order among new posts, and among the versions of
one message (the newest replaces those unsent, see `Deliverer.claim`), matters. Whenever a
send ends or a budget refills, the lanes whose next row may go now are started, what a
player must act on (a prompt, a role card, a ballot's opening, a window's closing) before
an edit of a message already posted (a vote shown in the ballot's tally), then chatter
(relays, recaps), the oldest first within each, as many at once as each platform takes
(`parallel`). Among what players must act on, a group's row goes before a private one: one
send reaches every player (a ballot's opening, a window's close), where a private one
reaches one — on Matrix, where one account sends 0.2 messages a second, a game's start
would otherwise hold the election's ballot behind every role card (issue 32). A round
starts sends for at most ROUND_SECONDS, so that deadlines keep firing while a backlog waits,
and ends when its sends have ended.

The budgets and the sends themselves are the deliverer's (`Pacing`): this module only
decides which row goes when.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass

from core.storage.models import Outbox

from ..messages.payloads import (
    ORDERS,
    BallotPayload,
    KeyboardPayload,
    Payload,
    PostPayload,
)

ACT_ON, EDIT, CHATTER = 0, 1, 2  # the ranks of a lane's next row where the budget is scarce
ROUND_SECONDS = 1.0  # wall seconds a round starts sends for
SOONEST = 0.005  # seconds: a budget that refills sooner counts as refilled
STOP_GRACE = 3.0  # seconds the sends under way get to end when the process stops


def acted_on(payload: Payload) -> bool:
    """Whether a player must act on this (or it changes what he may do): it goes first."""
    match payload:
        case PostPayload() | KeyboardPayload():
            return payload.urgent or payload.asks is not None
        case BallotPayload():
            return payload.urgent
        case _:
            return isinstance(payload, ORDERS)


@dataclass(frozen=True, slots=True)
class Outcome:
    sent: bool  # the row went (counted)
    holds_chat: bool = False  # nothing later for its chat this round (its order is kept)


@dataclass(frozen=True, slots=True)
class Pacing:
    """What a round asks the deliverer: how long a row must wait for its budgets (0: it may
    go now), how long every row of a platform must (its overall budget spent, a rest, a
    flood limit of all its chats), to count its send as begun, to send it (and settle what
    followed), how many sends a platform takes at once, and whether its rows go by
    priority (a platform without an overall budget takes them as they were written)."""

    wait: Callable[[Outbox, float], float]
    blocked: Callable[[str, float], float]  # the same for every row of a platform
    begin: Callable[[Outbox, float], None]
    send: Callable[[Outbox], Coroutine[None, None, Outcome]]
    parallel: Callable[[str], int]
    now: Callable[[], float]
    ranked: Callable[[str], bool]  # whether its budget is scarce: priorities decide who goes
    edit: Callable[[Outbox], bool]  # an edit of a message already posted: it jumps the lane


@dataclass(slots=True)
class Lane:
    rows: deque[Outbox]
    rank: int  # its next row's: ACT_ON, EDIT or CHATTER (the lower goes first)
    busy: bool = False


class Round:
    """One round over the claimed rows, by chat."""

    def __init__(self, pacing: Pacing, rows: list[Outbox], payloads: dict[int, Payload],
                 held: set[tuple[str, str]]) -> None:
        """The rows (oldest first) by chat, except the chats held."""
        self.pacing = pacing
        self.payloads = payloads
        by_chat: dict[tuple[str, str], deque[Outbox]] = {}
        for row in rows:
            key = (row.platform, row.chat_ref)
            if key not in held:
                by_chat.setdefault(key, deque()).append(row)
        self.lanes = [Lane(queue, CHATTER) for queue in by_chat.values()]
        for lane in self.lanes:
            self._mark(lane)
        self.sent = 0
        self.soonest: float | None = None  # seconds until a waiting lane's budgets refill
        self.in_flight: dict[str, int] = {}  # sends under way, per platform

    async def run(self) -> int:
        """Send what may go; how many were sent. A send that raised (the database went
        away) stops the starting of others and is raised when the rest have ended."""
        tasks: dict[asyncio.Task[Outcome], tuple[Lane, Outbox]] = {}
        until = time.monotonic() + ROUND_SECONDS
        failure: BaseException | None = None
        try:
            while True:
                wait = None
                if failure is None and time.monotonic() < until:
                    wait = self._start(tasks)
                if not tasks:
                    self.soonest = wait
                    break
                done, _ = await asyncio.wait(
                    tasks, timeout=None if wait is None else max(SOONEST, wait),
                    return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    lane, row = tasks.pop(task)
                    lane.busy = False
                    lane.rows.remove(row)
                    self.in_flight[row.platform] -= 1
                    if task.exception() is not None:
                        failure = failure or task.exception()
                        continue
                    outcome = task.result()
                    self.sent += outcome.sent
                    if outcome.holds_chat:
                        lane.rows.clear()
                    self._mark(lane)
        finally:
            if tasks:  # cancelled (the process stops): the sends under way may end first
                _, cut = await asyncio.wait(tasks, timeout=STOP_GRACE)
                for task in cut:  # their rows stay `sending` (recovered at the next start)
                    task.cancel()
                for task in tasks:
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
        if failure is not None:
            raise failure
        return self.sent

    def _start(self, tasks: dict[asyncio.Task[Outcome], tuple[Lane, Outbox]]) -> float | None:
        """Start every lane whose next row may go now, by rank (`_mark`), then the oldest;
        the seconds until the next waiting one may (None: none waits)."""
        now = self.pacing.now()
        soonest: float | None = None
        blocked: dict[str, float] = {}
        waiting = [lane for lane in self.lanes if lane.rows and not lane.busy]
        for lane in sorted(waiting, key=self._order):
            row = self._head(lane)
            if self.in_flight.get(row.platform, 0) >= self.pacing.parallel(row.platform):
                continue
            if row.platform not in blocked:
                blocked[row.platform] = self.pacing.blocked(row.platform, now)
            wait = blocked[row.platform] or self.pacing.wait(row, now)
            if wait > 0:
                soonest = wait if soonest is None else min(soonest, wait)
                continue
            self.pacing.begin(row, now)
            blocked.pop(row.platform)  # its overall budget is spent a little more
            lane.busy = True
            self.in_flight[row.platform] = self.in_flight.get(row.platform, 0) + 1
            tasks[asyncio.create_task(self.pacing.send(row), name=f"send-{row.id}")] = \
                (lane, row)
        return soonest

    def _order(self, lane: Lane) -> tuple[int, bool, int]:
        """Which waiting lane starts first: by rank, a group's row before a private one
        among what players act on (it reaches them all at once), then the oldest."""
        head = self._head(lane)
        return lane.rank, lane.rank == ACT_ON and head.private, head.id

    def _head(self, lane: Lane) -> Outbox:
        """The lane's next row: its first edit of a message already posted, else its oldest."""
        return next((row for row in lane.rows if self.pacing.edit(row)), lane.rows[0])

    def _mark(self, lane: Lane) -> None:
        """The rank of the lane's next row: what a player must act on, then an edit in place
        (a vote shown in the tally), then the rest (a platform whose budget is not scarce
        takes them as written)."""
        head = self._head(lane) if lane.rows else None
        if head is None or not self.pacing.ranked(head.platform):
            lane.rank = CHATTER
        elif acted_on(self.payloads[head.id]):
            lane.rank = ACT_ON
        else:
            lane.rank = EDIT if self.pacing.edit(head) else CHATTER
