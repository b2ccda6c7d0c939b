"""What follows a command the engine accepted, in a fixed order that is part of what players
read: their own "noted" first, then the closed window's ballot and keyboards, then the
results, then the removed go silent, the team rooms follow, and last the window moves on (the
next one opens, or the game ends, or the same window's deadline or tally changes).

Each reactor is a small module of `after/`; `Games.apply` runs them all, in this order."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from .after.ballot import close_the_window
from .after.noted import tell_noted
from .after.outcome import tell_outcome
from .after.removed import silence_the_removed
from .after.teams import keep_teams_in_step
from .after.window import move_on
from .applied import Applied, Held

Reactor = Callable[[Applied, Held], Awaitable[None]]

AFTER_A_COMMAND: tuple[Reactor, ...] = (
    tell_noted,
    close_the_window,
    tell_outcome,
    silence_the_removed,
    keep_teams_in_step,
    move_on,
)


async def react(applied: Applied, held: Held) -> None:
    for reactor in AFTER_A_COMMAND:
        await reactor(applied, held)
