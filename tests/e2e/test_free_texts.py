"""End to end: every host power (`/announce` included) and every free text a player or the
host writes — the Mare Do Well's letter, the changelings' abduction scene, the team chats'
whispers — through `nightfall play` as a real subprocess, in English, German and Russian, for
both rule sets. Each text arrives at its reader, word for word, inside the sentence of the
game's language; the game is played to its end; a German or Russian game prints no English."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from core.service.messages import texts
from tests.e2e.test_play import play, stored
from tests.free_texts import (
    ANNOUNCED,
    FREE,
    SHORT,
    WHISPER,
    host_sentences,
    leaks,
    letter_read,
    modkilled,
    replaced,
    said,
    whispered,
    witnessed,
)

SCRIPTS = Path(__file__).parent / "scripts"
# by the deal of --seed 11: whose seat Jon takes, whom the host removes (his role), who
# whispers to whom
CAST = {"changelings": ("Fay", "Gus", "changeling", "Gus", "Ann"),
        "alchemists": ("Gus", "Bob", "father", "Cid", "Bob")}
TYPED = {"changelings": FREE, "alchemists": (SHORT, ANNOUNCED, WHISPER)}  # no action with text


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
@pytest.mark.parametrize("ruleset", ["changelings", "alchemists"])
def test_every_host_power_and_free_text_reaches_its_reader(tmp_path, ruleset, locale):
    script = (SCRIPTS / f"{ruleset}_host_and_texts.play").read_text(encoding="utf-8")
    opening = f"Ann: /newgame {ruleset} en\n"
    assert opening in script and all(text in script for text in TYPED[ruleset])
    lines = play(tmp_path / "game.sqlite3",
                 script.replace(opening, f"Ann: /newgame {ruleset} {locale}\n"))

    group = {line.removeprefix("[group] ") for line in lines if line.startswith("[group] ")}
    missing = {power: text for power, text in host_sentences(locale, ruleset).items()
               if text not in group}
    assert not missing, missing
    seat, removed, role, writer, reader = CAST[ruleset]
    assert replaced(locale, ruleset, "Jon", seat) in group
    # the newcomer reads what the seat was told in the game, not the sign-up he never made
    jon = [line for line in lines if line.startswith("[to Jon] ")]
    assert f"[to Jon] {said(locale, ruleset, texts.RECAP_SEAT)}" in jon
    assert f"[to Jon] {said(locale, ruleset, texts.JOINED_PRIVATE)}" not in jon, jon
    assert modkilled(locale, ruleset, removed, role) & group
    assert f"[to {reader}] {whispered(locale, ruleset, writer)}" in lines
    if ruleset == "changelings":
        assert witnessed(locale) in group
        assert letter_read(locale) in group

    row, log, _, outbox = asyncio.run(stored(tmp_path / "game.sqlite3"))
    assert row.status == "ended", "the game was played to its end"
    assert row.version == len(log)
    assert all(r.status in ("sent", "superseded") for r in outbox), \
        [(r.id, r.status) for r in outbox if r.status not in ("sent", "superseded")]
    if locale != "en":
        found = leaks(lines, locale)
        assert not found, "\n".join(f"{problem}: {line}" for line, problem in found)
