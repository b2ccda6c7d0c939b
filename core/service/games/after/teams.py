"""Team rooms follow the rules' private chats while the game runs; once it is over they are
only closed (ending.py)."""

from __future__ import annotations

from ...telling.teams import sync_teams
from ..applied import Applied, Held


async def keep_teams_in_step(applied: Applied, held: Held) -> None:
    if not applied.ended:
        await sync_teams(applied.row, applied.game, applied.teams_before)
