"""`nightfall play`: read script lines and play them through the console session."""

from __future__ import annotations

import asyncio
from typing import TextIO

from .session import ConsoleSession, ScriptError

TICK = 0.5  # seconds between deadline checks with the real clock


async def run_play(script: TextIO, db: str, locale: str, clock: str, seed: int | None,
                   out: TextIO) -> int:
    session = ConsoleSession(db, out, locale, clock, seed)
    await session.start()
    ticker = None if clock == "manual" else asyncio.create_task(_tick(session))
    loop = asyncio.get_running_loop()
    try:
        while True:
            line = await loop.run_in_executor(None, script.readline)
            if not line:
                return 0
            try:
                await session.feed(line)
            except ScriptError as err:
                out.write(f"[console] {err}\n")
                out.flush()
    finally:
        if ticker is not None:
            ticker.cancel()
        await session.stop()


async def _tick(session: ConsoleSession) -> None:
    while True:
        await asyncio.sleep(TICK)
        await session.pump()
