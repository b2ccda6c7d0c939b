"""Firing due deadlines: each window whose deadline has passed is closed exactly once, oldest
first, each in a transaction of its own, under the same lock as the commands (and, with
several workers on one database, the game's row and then the deadline's row locked: whoever
comes second finds it fired).

A deadline that fails (a game that cannot be loaded, say) does not hold up the others: they
fire, it is tried again after `RETRY_PAUSE`, and its error is raised once the rest are done.
An unreachable database stops the round at once: all wait for it together."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from core.storage.db import database_unavailable
from core.storage.models import Deadline, GameRecord
from core.storage.states import CURRENT, DeadlineKind, DeadlineState, moved
from core.storage.transaction import transaction

from ..ports.clock import Clock
from ..rows.game_rows import locked_game
from ..rows.pending import writing
from ..rows.unit_of_work import command_scope
from .running import Games

log = logging.getLogger(__name__)
RETRY_PAUSE = 30.0  # seconds before a deadline that failed is tried again


class Firing:
    """The deadline scheduler's side of the service: fires what is due, counts what it fired
    and how late (for /metrics)."""

    def __init__(self, games: Games, clock: Clock, lock: asyncio.Lock,
                 give_up: Callable[[GameRecord], Awaitable[None]],
                 depart: Callable[[GameRecord, Deadline], Awaitable[None]]) -> None:
        self.games = games
        self.clock = clock
        self.lock = lock  # the service's: one command or deadline at a time
        self.give_up = give_up  # a game whose group stayed unreachable is cancelled
        self.depart = depart  # a player who left the game's chat and is not back leaves
        self.fired = 0
        self.lateness = 0.0  # seconds, summed over the fired deadlines
        self.retry_at: dict[int, float] = {}  # a failed deadline's next try
        # a reminder due before this came due while the bot was down: skipped (see CatchUp)
        self.skip_reminders_before = 0.0

    async def fire_due(self, limit: int | None = None) -> int:
        """Close every window whose deadline has passed (or the `limit` oldest); how many
        windows closed."""
        closed = 0
        now = self.clock.now()
        due = Deadline.filter(state=DeadlineState.PENDING, due_at__lte=now).order_by("due_at", "id")
        if limit is not None:
            due = due.limit(limit)
        failures: list[Exception] = []
        for waiting in await due:
            if self.retry_at.get(waiting.id, 0.0) > now:
                continue
            async with self.lock:
                try:
                    fired = await self.fire_one(waiting)
                    self.retry_at.pop(waiting.id, None)
                except Exception as err:
                    self.games.reset()
                    if database_unavailable(err):
                        raise  # not this game's fault: all wait for the database together
                    self.retry_at[waiting.id] = now + RETRY_PAUSE
                    if failures:
                        log.exception("deadline %s of game %s failed", waiting.id,
                                      waiting.game_id)
                    failures.append(err)
                    continue
            if fired is not None:
                closed += 1
                self.fired += 1
                self.lateness += max(0.0, self.clock.now() - fired.due_at)
        if failures:
            raise failures[0]
        return closed

    async def fire_one(self, waiting: Deadline) -> Deadline | None:
        """One due deadline in its own transaction: the game's row locked first, then the
        deadline's (the order every command takes); the deadline if it closed its window."""
        with command_scope():
            async with transaction(), writing():
                row = await locked_game(waiting.game_id)
                deadline = await Deadline.filter(id=waiting.id).select_for_update().get()
                if deadline.state != DeadlineState.PENDING or await self.passed_over(row, deadline):
                    return None
                return deadline if await self.games.fire(row, deadline) else None

    async def passed_over(self, row: GameRecord, deadline: Deadline) -> bool:
        """A deadline marked done without closing a window: a reminder that fell due while
        the bot was down (the votes it would ask for may be queued), the end of the wait
        for a group that stayed unreachable (its game given up), or for a player who left
        the game's chat (he leaves the game)."""
        if deadline.kind == DeadlineKind.REMIND and \
                deadline.due_at < self.skip_reminders_before:
            deadline.state = moved(deadline.state, DeadlineState.FIRED)
            await deadline.save(update_fields=["state"])
            return True
        if deadline.kind == DeadlineKind.GIVE_UP:
            deadline.state = moved(deadline.state, DeadlineState.FIRED)
            await deadline.save(update_fields=["state"])
            if row.status in CURRENT and (row.settings or {}).get("lost"):
                await self.give_up(row)
            return True
        if deadline.kind == DeadlineKind.LEAVE:
            deadline.state = moved(deadline.state, DeadlineState.FIRED)
            await deadline.save(update_fields=["state"])
            await self.depart(row, deadline)
            return True
        return False
