"""Leaving the game's chat, in the service (commands/departures.py), driven through the
console session with `MemberLeft` / `MemberBack` as an adapter hands them over: the grace
time is a stored deadline (it outlives a restart, a pause does not stop it), the same news
twice is applied once, a seat the host gave to somebody else meanwhile is not taken out, and
a kick is at once."""

from __future__ import annotations

from adapters.console.adapter import CONSOLE_CHAT
from core.service import MemberBack, MemberLeft, UserRef
from core.service.messages import texts

from .helpers import open_chat, started_changelings, the_game

GRACE = 300  # seconds: the default


def left(who: str, update: str, kicked: bool = False) -> MemberLeft:
    return MemberLeft("console", update, CONSOLE_CHAT, UserRef(who), kicked)


async def cause(chat, name: str) -> str | None:
    game = await chat.session.service.games.load(await the_game())
    return next(p.cause for p in game.state.players.values() if p.name == name)


async def news(chat, event) -> list[str]:
    await chat.session.service.membership(event)
    await chat.session.pump()
    return chat.new()


async def test_the_grace_time_outlives_a_restart_and_a_pause(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    told = await news(chat, left("Dot", "m1"))
    assert any(line.startswith("[to Dot] You have left the game's group.") for line in told)
    assert not any(line.startswith("[group]") for line in told)
    assert await news(chat, left("Dot", "m2")) == []  # the other report of it: nothing more
    await chat("Ann: /pause")
    await chat.session.restart()
    await chat(f":wait {GRACE - 10}s")
    assert await cause(chat, "Dot") is None
    gone = await chat(":wait 20s")
    assert await cause(chat, "Dot") == "left_chat"
    assert [line for line in gone if line.startswith("[group]") and "Dot" in line]
    await chat("Ann: /resume")


async def test_a_seat_given_to_somebody_else_meanwhile_stays(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await news(chat, left("Eve", "m1"))
    await chat("Zoe: hello", "Ann: /replace Eve Zoe")
    await chat(f":wait {GRACE + 10}s")
    assert await cause(chat, "Zoe") is None  # the seat is Zoe's now, and she stays
    assert await news(chat, MemberBack("console", "m2", CONSOLE_CHAT, UserRef("Eve"))) == []


async def test_back_in_time_and_a_kick(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await news(chat, left("Fay", "m1"))
    back = await news(chat, MemberBack("console", "m2", CONSOLE_CHAT, UserRef("Fay")))
    assert f"[to Fay] {texts.BACK_IN_TIME}" in back
    await chat(f":wait {GRACE + 10}s")
    assert await cause(chat, "Fay") is None
    kicked = await news(chat, left("Gus", "m3", kicked=True))
    assert await cause(chat, "Gus") == "kicked"
    assert [line for line in kicked if line.startswith("[group]") and "Gus" in line]
    assert await news(chat, left("Gus", "m4", kicked=True)) == []  # out already
