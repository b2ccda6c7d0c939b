"""A window's deadline as rows: scheduling it (with its reminder) when the window opens,
moving it when the host pauses, resumes or extends, and reminding those it waits for."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from core.engine import Extend, Game, HostCommand, Pause, Resume
from core.engine.voice import Voiced
from core.storage.models import Deadline, GameRecord
from core.storage.states import DeadlineKind, DeadlineState, moved

from ..messages import outbox
from ..messages.payloads import PostPayload, part
from ..messages.voiced import voiced
from ..ports.clock import Clock
from ..rows.game_rows import seat_identities
from .deadline_times import due_at, reminder_lead, time_left, window_key
from .timers import window_preset

WINDOW_KINDS = (DeadlineKind.CLOSE, DeadlineKind.REMIND)  # a window's, not the game's


class Deadlines:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    async def window_opened(self, row: GameRecord, game: Game) -> float | None:
        """The new window's deadline from the game's pace (none while paused, none for a
        window the pace leaves open): when it is due, if it is."""
        settings = row.settings or {}
        preset = window_preset(game.ruleset, settings, window_key(game.state.phase.stage))
        if preset is None or game.state.paused:
            return None
        due = due_at(preset, self.clock.now(), settings.get("tz", "Europe/Berlin"))
        await self.schedule(row, due)
        return due

    async def host_timing(self, row: GameRecord, command: HostCommand) -> None:
        now = self.clock.now()
        pending = await pending_close(row.id)
        if isinstance(command, Pause) and pending is not None:
            row.paused_left = max(0.0, pending.due_at - now)
            await void(row)
        elif isinstance(command, Resume):
            left = row.paused_left if row.paused_left is not None else 0.0
            row.paused_left = None
            await self.schedule(row, now + left)
        elif isinstance(command, Extend):
            if pending is not None:
                await void(row)
                await self.schedule(row, max(now, pending.due_at + command.minutes * 60))
            elif row.paused_left is not None:
                row.paused_left = max(0.0, row.paused_left + command.minutes * 60)

    async def schedule(self, row: GameRecord, due: float) -> None:
        """The open window's deadline, and its reminder (`reminder_lead`) before it."""
        await Deadline.create(game=row, window=row.window, due_at=due)
        lead = reminder_lead(due - self.clock.now())
        if lead is not None:
            await Deadline.create(game=row, window=row.window, due_at=due - lead,
                                  kind=DeadlineKind.REMIND)

    async def remind(self, row: GameRecord, load: Callable[[GameRecord], Awaitable[Game]]) -> None:
        """Tell each player the window still waits for how long is left (a missing vote
        costs the alchemists votes; an unsent action is simply lost)."""
        close = await pending_close(row.id, row.window)
        if close is None:  # paused (a pause voids the reminder too, so only in a race)
            return
        if close.due_at - self.clock.now() < 1:  # fired late: nothing is left to remind of
            return
        game = await load(row)
        prompt = (Voiced.REMIND_VOTE if game.ruleset.voting_open(game)
                  else Voiced.REMIND_CHOICE)
        left = time_left(close.due_at, self.clock.now(), row.settings)
        seats = await seat_identities(row)
        for pid in game.ruleset.waiting_for(game):
            if pid in seats:
                await outbox.to_person(seats[pid], PostPayload(
                    (part(voiced(row, game, prompt, pid), left=left),), urgent=True,
                    asks=seats[pid].id, window=row.window), game=row)


async def pending_close(game_id: int, window: int | None = None) -> Deadline | None:
    """When the game's open window (`window`, if given) closes, if that is still to come."""
    query = Deadline.filter(game_id=game_id, kind=DeadlineKind.CLOSE,
                            state=DeadlineState.PENDING)
    return await (query if window is None else query.filter(window=window)).first()


async def void(row: GameRecord) -> None:
    """The game's open window's close (and its reminder) no longer count."""
    await Deadline.filter(game_id=row.id, kind__in=WINDOW_KINDS, state=DeadlineState.PENDING) \
        .update(state=moved(DeadlineState.PENDING, DeadlineState.VOID))


async def void_all(game_id: int, kinds: tuple[DeadlineKind, ...] = tuple(DeadlineKind)) -> None:
    """The game's pending deadlines of these kinds (all of them: the game is over) no
    longer count."""
    await Deadline.filter(game_id=game_id, kind__in=kinds, state=DeadlineState.PENDING) \
        .update(state=moved(DeadlineState.PENDING, DeadlineState.VOID))
