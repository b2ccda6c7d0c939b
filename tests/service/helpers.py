"""A console session in memory, for driving the service in tests."""

from __future__ import annotations

import io

from adapters.console.session import ConsoleSession
from core.engine.registry import load_ruleset
from core.storage.models import GameRecord, LogEntry

PLAYERS = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus")


class Chat:
    """Feed lines, read what the bot printed since the last look."""

    def __init__(self, session: ConsoleSession, out: io.StringIO) -> None:
        self.session = session
        self.out = out
        self.seen = 0

    async def __call__(self, *lines: str) -> list[str]:
        for line in lines:
            await self.session.feed(line)
        return self.new()

    def new(self) -> list[str]:
        text = self.out.getvalue()
        fresh = text[self.seen:]
        self.seen = len(text)
        return fresh.splitlines()

    def all(self) -> list[str]:
        return self.out.getvalue().splitlines()


async def open_chat(db_url: str, locale: str = "en", seed: int = 7) -> Chat:
    out = io.StringIO()
    session = ConsoleSession(db_url, out, locale, "manual", seed)
    await session.start()
    return Chat(session, out)


async def started_changelings(chat: Chat, roles: str = "changeling,changeling,researcher,"
                              "shield,pony,pony,pony") -> list[str]:
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /option random_lovers false", f"Ann: /setroles {roles}")
    return await chat("Ann: /startgame")


async def log_size() -> int:
    return await LogEntry.all().count()


async def the_game() -> GameRecord:
    row = await GameRecord.all().order_by("-id").first()
    assert row is not None
    return row


def voiced(prompt: str, ruleset: str = "changelings", **params: str) -> set[str]:
    """Every way the game's voice may tell `prompt` (a name of core/engine/voice.py's
    PROMPTS), in English, with these parameters: which one a reader gets is the voice's."""
    return {variant.format(**params) for variant in load_ruleset(ruleset).voice[prompt]}
