"""An edited message, as the service judges it for every platform (alchemists-decisions.md,
changelings-decisions.md CH-VOTE): an edit of the message that cast a player's current vote
withdraws it — unless the vote is early (AL-EARLY), which can be neither changed nor
withdrawn; the player is told which, each time."""

from __future__ import annotations

import itertools
from pathlib import Path

from adapters.console.adapter import CONSOLE_CHAT
from core.service import Command, Incoming, UserRef

from .helpers import Chat, open_chat, the_game

UPDATES = itertools.count(1)


async def typed(chat: Chat, who: str, text: str, message: str, edits: str | None = None
                ) -> list[str]:
    """`who` writes `text` in the group as the platform's message `message`; with `edits`,
    the text is an edit of that earlier message."""
    session = chat.session
    assert session.service is not None
    await session.service.handle(Incoming(
        platform="console", update_id=f"typed-{next(UPDATES)}", user=UserRef(who),
        user_name=who, text=text, command=Command.parse(text), chat=CONSOLE_CHAT,
        message=message,
        situation="edited" if edits else None, edits=edits))
    await session.pump()
    return chat.new()


async def at_day_3(db_url: str) -> Chat:
    """The scripted alchemists' game (tests/e2e/scripts) up to its day 3, when early votes
    are allowed."""
    chat = await open_chat(db_url, seed=11)
    script = (Path(__file__).resolve().parent.parent / "e2e" / "scripts" /
              "alchemists_full_game.play").read_text(encoding="utf-8").splitlines()
    day3 = script.index("# Day 3: lust is executed, the State Alchemists win")
    for line in script[:day3]:
        if line and not line.startswith("#"):
            await chat(line)
    return chat


async def test_an_edit_withdraws_a_vote_but_not_an_early_one(db_url):
    chat = await at_day_3(db_url)
    await typed(chat, "Ann", "/vote Cid", "m1")
    await chat("Ann: [My vote is early]")
    await typed(chat, "Eve", "/vote Cid", "m2")
    told_ann = await typed(chat, "Ann", "/vote Dot", "m1", edits="m1")
    told_eve = await typed(chat, "Eve", "/vote Dot", "m2", edits="m2")
    row = await the_game()
    game = await chat.session.service.games.load(row)
    pids = {p.name: p.pid for p in game.state.players.values()}
    assert game.state.votes == {pids["Ann"]: pids["Cid"]}
    assert "[to Ann] You edited the message with your vote for Cid. Edits do not count, " \
           "and an early vote can be neither changed nor withdrawn: it stays as it was." \
           in told_ann
    assert any(line.startswith("[to Eve] You edited the message with your vote for Cid. "
                               "A vote in an edited message does not count")
               for line in told_eve)
    assert await typed(chat, "Eve", "/vote Dot", "m2", edits="m2") == [
        "[to Eve] Edits do not count: I read a command only as it was first sent. Send it "
        "again as a new message."]  # withdrawn already: nothing changes, and he hears it


async def test_an_edit_of_a_vote_he_has_since_changed_changes_nothing(db_url):
    """The message's vote is no longer his once he voted otherwise (by a button, or as here
    by a command no edit can reach): its edit withdraws nothing, and the later vote stands."""
    chat = await at_day_3(db_url)
    await typed(chat, "Eve", "/vote Cid", "m3")
    await chat("Eve: /vote Ann")  # (the console's lines carry no message id, as a button)
    told = await typed(chat, "Eve", "/vote Dot", "m3", edits="m3")
    game = await chat.session.service.games.load(await the_game())
    pids = {p.name: p.pid for p in game.state.players.values()}
    assert game.state.votes == {pids["Eve"]: pids["Ann"]}
    assert told == ["[to Eve] Edits do not count: I read a command only as it was first sent. "
                    "Send it again as a new message."]
