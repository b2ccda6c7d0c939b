"""Whole games in German and Russian, both rule sets, through the service on the console
adapter, with the host's commands and the players' /status, /help and /myrole: what players
read holds no English word, no raw id, no empty list and no unfilled placeholder."""

from __future__ import annotations

import io
import random
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from adapters.console.demo import NAMES, _play
from adapters.console.session import ConsoleSession
from core.engine.registry import load_ruleset
from core.i18n import LOCALES_DIR

WORD = re.compile(r"(?<![/@\w])[A-Za-z][A-Za-z']{3,}")
PLACEHOLDER = re.compile(r"\{\w*\}")
SNAKE = re.compile(r"(?<![/\w])[a-z]+_[a-z_]+\b")
RAW_PHASE = re.compile(r"\b(day|night) \d+\b")
EMPTY_LIST = re.compile(r":\s*\.")
HEADING = re.compile(r":\s*$")  # fine when the same message goes on in the next line
COMMAND_ARG = re.compile(r"/\w+(?: [A-Z]+\b| [a-z_]+)?")  # "/option NAME", "/option stone_holder"
PLAYER_COUNT = {"changelings": 8, "alchemists": 9}


def _catalogs() -> list[Path]:
    found = [LOCALES_DIR]
    for ruleset_id in PLAYER_COUNT:
        locales = load_ruleset(ruleset_id).locales_dir
        assert locales is not None
        found.append(locales)
    return [p for d in found for p in d.glob("*/LC_MESSAGES/*.po")]


@cache
def english_words() -> frozenset[str]:
    """Words of the English source texts that no German or Russian text uses as well (the
    role names the German community keeps in English are in its texts, so they pass)."""
    english: set[str] = set()
    native: set[str] = set()
    for path in _catalogs():
        with path.open("rb") as fh:
            catalog = read_po(fh, locale=path.parent.parent.name)
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in ids:
                english.update(w.casefold() for w in WORD.findall(PLACEHOLDER.sub("", text)))
            for text in strings:
                native.update(w.casefold() for w in WORD.findall(text))
    return frozenset(english - native - {n.casefold() for n in NAMES})


def where(line: str) -> str:
    return line.partition("]")[0]


def problems(line: str, after: str = "") -> list[str]:
    """What is wrong in one line a player reads (its "[to Ann]" prefix taken off); `after`
    is the next line printed (a heading must be followed by its list, to the same reader)."""
    text = re.sub(r"^\[[^\]]*\] (buttons: )?", "", line)
    found = [f"placeholder {m}" for m in PLACEHOLDER.findall(text)]
    found += [f"raw phase {m.group(0)!r}" for m in RAW_PHASE.finditer(text)]
    found += ["empty list"] if EMPTY_LIST.search(text) or (
        HEADING.search(text) and where(after) != where(line)) else []
    prose = COMMAND_ARG.sub("", text)
    found += [f"raw id {m}" for m in SNAKE.findall(prose)]
    found += [f"English {w!r}" for w in WORD.findall(prose) if w.casefold() in english_words()]
    return found


async def whole_game(db_url: str, ruleset: str, locale: str, seed: int) -> list[str]:
    out = io.StringIO()
    session = ConsoleSession(db_url, out, locale, "manual", seed)
    await session.start()
    names = list(NAMES[:PLAYER_COUNT[ruleset]])
    host = names[0]
    try:
        for line in (f"{host}: /newgame {ruleset}", *(f"{n}: /join" for n in names[1:]),
                     f"{host}: /status", f"{host}: /option", f"{host}: /option early_close on",
                     f"{host}: /pace quick", f"{host}: /roles", f"{host}: /startgame",
                     f"{names[2]}> /help", f"{names[2]}> /status", f"{names[2]}> /myrole",
                     f"{host}: /status", f"{host}: /pause", f"{host}: /status",
                     f"{host}: /resume", f"{host}: /extend 5", f"{host}: /modkill {names[-1]}",
                     f"{names[3]}> /status", f"{host}: /roles"):
            await session.feed(line)
        await _play(session, names, random.Random(seed))
        await session.feed(f"{host}: /status")
    finally:
        await session.stop()
    return out.getvalue().splitlines()


@pytest.mark.parametrize("locale", ["de", "ru"])
@pytest.mark.parametrize("ruleset", sorted(PLAYER_COUNT))
async def test_a_whole_game_reads_native(db_url, ruleset, locale):
    lines = await whole_game(db_url, ruleset, locale, seed=3)
    assert any("[group]" in line for line in lines[-40:]), "the game was played to its end"
    bad = [(line, found) for line, after in zip(lines, [*lines[1:], ""], strict=True)
           if not line.startswith("[notice") for found in [problems(line, after)] if found]
    assert not bad, "\n".join(f"{found}: {line}" for line, found in bad[:40])


def test_the_checks_catch_what_they_are_for():
    assert problems("[group] Phase: day 2 vote.")
    assert problems("[group] Einstellung geändert: random_lovers = aus.")
    assert problems("[to Ann] Noch nicht abgestimmt: .")
    assert problems("[to Ann] Noch nicht abgestimmt:", "[group] Tag 2.")
    assert not problems("[to Ann] Deine Rolle:", "[to Ann] Depp.")
    assert problems("[group] Spiel: {ruleset}.")
    assert problems("[group] Zeit: noch 4 minutes.")
    assert not problems("[group] Schreib /vote NAME oder /option stone_holder.")
