"""A closed window's ballot and keyboards close before the group hears the result: the
ballot's last version without buttons (showing the count that decided), each private
keyboard without its buttons."""

from __future__ import annotations

from ...telling.ballots import close_ballot
from ...telling.prompts import close_keyboards
from ..applied import Applied, Held


async def close_the_window(applied: Applied, held: Held) -> None:
    if applied.new_window:
        row = applied.row
        await close_ballot(row, applied.game, applied.outcome)
        held.ballots.pop((row.id, row.window), None)
        await close_keyboards(row)
