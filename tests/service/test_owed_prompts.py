"""A choice a player owes in the pony game (a tie to break, the next mayor to name, a chase)
is asked once, in the game's own words: the keyboard of that choice carries its question,
never the core's "your turn" prompt beside it."""

from __future__ import annotations

import re

from rulesets.changelings.voice import COUNTED, OWN, VOICE

from .helpers import PLAYERS, open_chat, started_changelings, the_game

PLACEHOLDER = re.compile(r"\\\{\w+(?::\w+)?\\\}")  # "{count:w}" too


def any_of(texts) -> re.Pattern[str]:
    """The texts as told, whatever their placeholders name."""
    return re.compile("|".join(PLACEHOLDER.sub(".+", re.escape(t)) for t in texts))


# the core's prompt in the pony game's voice, whatever actions it names
CORE_PROMPT = any_of(VOICE["ACTION_PROMPT"])
# the game's own questions of an owed choice (told as asking for it)
ASKING = {*OWN["SUCCESSOR"], *OWN["CHASE"], *(pair[0] for pair in COUNTED["TIE_PICK"])}
# the game's own questions; the tie's names the tied, in its plural form
OWN_QUESTION = any_of([*ASKING, *(pair[1] for pair in COUNTED["TIE_PICK"])])


def prompts_to(name: str, lines: list[str]) -> list[str]:
    """The lines that ask `name` for a choice: the game's own questions and the core's."""
    said = [line.removeprefix(f"[to {name}] ") for line in lines
            if line.startswith(f"[to {name}] ")]
    return [text for text in said if OWN_QUESTION.fullmatch(text) or CORE_PROMPT.fullmatch(text)]


async def mayor_ann(db_url, roles: str = "changeling,changeling,researcher,shield,pony,pony,"
                    "pony"):
    """Ann is elected mayor on day 1; nobody acts in the night."""
    chat = await open_chat(db_url)
    await started_changelings(chat, roles)
    await chat(*(f"{p}: /vote Ann" for p in PLAYERS))
    await chat(":wait 3m")
    return chat


async def test_the_mayor_is_asked_once_to_break_a_tie(db_url):
    chat = await mayor_ann(db_url)
    lines = await chat("Bob: /vote Dot", "Cid: /vote Dot", "Eve: /vote Gus", "Fay: /vote Gus",
                       ":wait 5m")
    asked = prompts_to("Ann", lines)
    assert len(asked) == 1 and OWN_QUESTION.fullmatch(asked[0]), lines
    assert "Dot and Gus" in asked[0]  # CH-MAYOR: the tied are named
    assert lines[lines.index(f"[to Ann] {asked[0]}") + 1] == "[to Ann] buttons: [Dot] [Gus] [Pass]"


async def test_the_banished_mayor_is_asked_once_to_name_the_next(db_url):
    chat = await mayor_ann(db_url)
    lines = await chat(*(f"{p}: /vote Ann" for p in PLAYERS[1:]), ":wait 5m")
    asked = prompts_to("Ann", lines)
    assert len(asked) == 1 and asked[0] in ASKING, lines
    assert lines[lines.index(f"[to Ann] {asked[0]}") + 1].startswith("[to Ann] buttons: [Bob]")


async def test_the_banished_drama_queen_is_asked_once_whom_she_takes_along(db_url):
    chat = await mayor_ann(db_url, "changeling,changeling,drama_queen,shield,pony,pony,pony")
    game = await chat.session.service.games.load(await the_game())
    [queen] = [p.name for p in game.state.players.values() if p.role == "drama_queen"]
    lines = await chat(*(f"{p}: /vote {queen}" for p in PLAYERS if p != queen), ":wait 5m")
    asked = prompts_to(queen, lines)
    assert len(asked) == 1 and asked[0] in OWN["CHASE"], lines
    assert lines[lines.index(f"[to {queen}] {asked[0]}") + 1].startswith(
        f"[to {queen}] buttons: ")
