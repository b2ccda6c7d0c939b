"""`nightfall demo`: a whole game with simulated players through the whole stack (service,
SQLite in a temporary file, console adapter), printed as the chat would show it."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import TextIO

from core.service import ButtonOut
from core.service.commands.local import next_due, running, window_of

from .adapter import CONSOLE_CHAT
from .session import ConsoleSession

# as many names as the largest table of the installed rule sets (changelings: 30)
NAMES = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lea",
         "Max", "Ned", "Oda", "Pia", "Quin", "Rex", "Sue", "Tom", "Uma", "Vic", "Wes", "Xia",
         "Yul", "Zoe", "Abe", "Bea", "Cal", "Dan")


async def run_demo(ruleset: str, players: int, locale: str, seed: int, out: TextIO,
                   db_url: str | None = None) -> bool:
    """Play one game; in a temporary SQLite file unless `db_url` keeps it (the benchmarks
    count its messages afterwards). True if `out` lost its reader (`| head`) and the game
    was left there."""
    if db_url is None:
        with tempfile.TemporaryDirectory() as folder:
            return await run_demo(ruleset, players, locale, seed, out,
                                  f"sqlite://{Path(folder) / 'demo.sqlite3'}")
    rng = random.Random(seed)
    names = list(NAMES[:players])
    session = ConsoleSession(db_url, out, locale, "manual", seed)
    await session.start()
    try:
        await session.feed(f"{names[0]}: /newgame {ruleset}")
        for name in names[1:]:
            await session.feed(f"{name}: /join")
        await session.feed(f"{names[0]}: /startgame")
        await _play(session, names, rng)
    finally:
        await session.stop()
    return session.adapter.closed.is_set()


async def _play(session: ConsoleSession, names: list[str], rng: random.Random) -> None:
    # the group's keyboard when play begins is the sign-up's: pressing it now would only earn
    # every player a "sign-up is closed" notice
    answered: dict[str, object] = {"group": session.adapter.keyboards.get(str(CONSOLE_CHAT))}
    for _ in range(400):
        assert session.service is not None
        if session.adapter.closed.is_set():  # `nightfall demo | head`: nobody reads on
            return
        now = await running(session.service.games, session.adapter.platform,
                              str(CONSOLE_CHAT))
        if now is None:
            return
        game = now.game
        living = {p.name for p in game.state.players.values() if p.alive}
        keyboards = session.adapter.keyboards
        for name in names:
            board = keyboards.get(name)
            while board and answered.get(name) is not board:  # a second step comes at once
                answered[name] = board
                await session.say(name, True, f"[{_pick(board, rng)}]")
                board = keyboards.get(name)
        group = keyboards.get(str(CONSOLE_CHAT))
        if group and answered.get("group") is not group:
            answered["group"] = group
            for name in names:
                if name in living:
                    await session.say(name, False, f"[{_pick(group[:-1] or group, rng)}]")
        if await window_of(now.game_id) != now.window:
            continue  # the answers closed the window early: answer the next one first
        await session.feed(f":wait {await _until_next_deadline(session, now.game_id)}s")


async def _until_next_deadline(session: ConsoleSession, game_id: int) -> int:
    """Seconds until the game's next deadline or reminder has passed: at most one window
    closes per round, so every window (a short dusk too) gets its players' answers first,
    and a reminder is read while time is still left."""
    due = await next_due(game_id)
    if due is None:
        return 300
    return max(1, int(due - session.clock.now()) + 1)


def _pick(board: tuple[ButtonOut, ...], rng: random.Random) -> str:
    labels = [button.label for button in board]
    active = labels[:-1] if len(labels) > 1 else labels
    return rng.choice(active) if rng.random() < 0.85 else labels[-1]
