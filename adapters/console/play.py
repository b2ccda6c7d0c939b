"""`nightfall play`: read script lines and play them through the console session, telling
first when the database already holds the group's game (it goes on with that one)."""

from __future__ import annotations

import asyncio
from typing import TextIO

from core.service.commands.local import saved_game

from .adapter import CONSOLE_CHAT, ConsoleAdapter
from .pipe import lines_of, silence, watch_closed
from .session import ConsoleSession, ScriptError

TICK = 0.5  # seconds between deadline checks with the real clock


async def run_play(script: TextIO, db: str, locale: str, clock: str, seed: int | None,
                   out: TextIO) -> int:
    session = ConsoleSession(db, out, locale, clock, seed)
    await session.start(before_connect=lambda: _tell_resumed(db, out))
    ticker = None if clock == "manual" else asyncio.create_task(_tick(session))
    closed = session.adapter.closed
    unwatch = watch_closed(out, closed)
    try:
        async for line in lines_of(script, closed):
            try:
                await session.feed(line)
            except ScriptError as err:
                session.adapter.notice_console(str(err))
        return 0
    finally:
        unwatch()
        if ticker is not None:
            ticker.cancel()
        await session.stop()
        if closed.is_set():  # the reader went away (`| head`): end quietly
            silence(out)


async def _tell_resumed(db: str, out: TextIO) -> None:
    """A database that already holds a game of the console's group goes on with it: say so
    first (before its keyboards are shown again), and how to start afresh, or the first lines
    of a new script meet an old game."""
    saved = await saved_game(ConsoleAdapter.platform, str(CONSOLE_CHAT))
    if saved is None:
        return
    where = db.removeprefix("sqlite://") if db.startswith("sqlite://") else db.split("@")[-1]
    stage = "its sign-up" if saved.signing_up else "the game"
    fresh = (f"delete {where} (with its -wal and -shm files) or give another --db"
             if db.startswith("sqlite://") else "give another --db")
    players = f"{saved.players} player{'' if saved.players == 1 else 's'}"
    out.write(f"[console] resuming saved game {saved.game_id} ({saved.ruleset}, {stage}, "
              f"{players}) from {where}; to start fresh, {fresh}\n")
    out.flush()


async def _tick(session: ConsoleSession) -> None:
    while True:
        await asyncio.sleep(TICK)
        await session.pump()
