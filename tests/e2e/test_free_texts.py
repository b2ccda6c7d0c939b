"""End to end: every host power (`/announce` included) and every free text a player or the
host writes — the Mare Do Well's letter, the changelings' abduction scene, the team chats'
whispers — through `nightfall play` as a real subprocess, in English, German and Russian, for
both rule sets. Each text arrives at its reader, word for word, inside the sentence of the
game's language; the game is played to its end; a German or Russian game prints no English."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from core.engine.messages import Ref
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from rulesets.changelings.flavour import REMOVED
from tests.e2e.test_play import play, stored
from tests.service.test_native_texts import PICTURE, problems

SCRIPTS = Path(__file__).parent / "scripts"
SHORT = "Halt"  # four characters, the length an earlier codec took for an encoded text
ANNOUNCED = "Tee <5> & «Ёлка» 🎄 — ok?!"
SCENE = "Ich sah Flügel im Nebel, «крылья»! 🦋"
LETTER = "Cid lügt — «лжец»! 🐴"
WHISPERS = {"changelings": ("Ann", "Gus", "Bob, ja? 🐝"),  # reader, writer, text
            "alchemists": ("Bob", "Cid", "Dot heute, «живо»! 🗡")}
FREE = (SHORT, ANNOUNCED, SCENE, LETTER, *(text for _, _, text in WHISPERS.values()))


def said(locale: str, ruleset: str, key: str, plural: str | None = None,
         count: int | None = None, prefix: str = "/", **params: Any) -> str:
    """A message as the game's reader gets it in `locale` (players named as in the script)."""
    renderer = Renderer(locale, load_ruleset(ruleset).vocabulary, str, prefix, ruleset)
    counted = {"count": count} if plural is not None else {}
    return renderer.render_parts(key, plural, count, {**counted, **params})


def host_sentences(locale: str, ruleset: str, prefix: str = "/") -> dict[str, str]:
    """What the group reads when the host uses each power, in the game's language."""
    def group(key: str, plural: str | None = None, count: int | None = None,
              **params: Any) -> str:
        return said(locale, ruleset, key, plural, count, prefix, **params)
    return {
        "announce short": group("Announcement from the host: {text}", text=SHORT),
        "announce": group("Announcement from the host: {text}", text=ANNOUNCED),
        "pause": group("The host paused the game. Nothing counts until it resumes."),
        "resume": group("The host resumed the game."),
        "extend": group("The host changed the deadline by {count} minute.",
                        "The host changed the deadline by {count} minutes.", 5),
        "force": group("The host closes the current phase."),
    }


def modkilled(locale: str, ruleset: str, name: str, role: str) -> set[str]:
    """The group's line on a player the host removed (the pony game has several)."""
    if ruleset == "alchemists":
        return {said(locale, ruleset, "{name} has been removed from the game.", name=name)}
    return {said(locale, ruleset, variant, name=name, role=Ref("role_was", role))
            for variant in REMOVED["modkill"]}


def free_texts_out(line: str) -> str:
    """A line without the free texts typed in the game: they are the players' own words."""
    for text in FREE:
        line = line.replace(text, "…")
    return line


def leaks(lines: Iterable[str], locale: str) -> list[tuple[str, list[str]]]:
    """The lines of a German or Russian game that hold English (or a raw id, a placeholder)."""
    shown = [free_texts_out(line) for line in lines if not PICTURE.match(line)]
    return [(line, found) for line, after in zip(shown, [*shown[1:], ""], strict=True)
            for found in [problems(line, after, locale)] if found]


SEATS = {"changelings": ("Fay", "Gus", "changeling"), "alchemists": ("Gus", "Bob", "father")}


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
@pytest.mark.parametrize("ruleset", ["changelings", "alchemists"])
def test_every_host_power_and_free_text_reaches_its_reader(tmp_path, ruleset, locale):
    script = (SCRIPTS / f"{ruleset}_host_and_texts.play").read_text(encoding="utf-8")
    opening = f"Ann: /newgame {ruleset} en\n"
    assert opening in script
    lines = play(tmp_path / "game.sqlite3",
                 script.replace(opening, f"Ann: /newgame {ruleset} {locale}\n"))

    group = {line.removeprefix("[group] ") for line in lines if line.startswith("[group] ")}
    missing = {power: text for power, text in host_sentences(locale, ruleset).items()
               if text not in group}
    assert not missing, missing
    replaced, removed, role = SEATS[ruleset]
    assert said(locale, ruleset, "{new} takes over the seat of {old}.",
                new="Jon", old=replaced) in group
    assert modkilled(locale, ruleset, removed, role) & group
    reader, writer, whisper = WHISPERS[ruleset]
    assert f"[to {reader}] " + said(locale, ruleset, "{name} whispers: {text}",
                                    name=writer, text=whisper) in lines
    if ruleset == "changelings":
        assert said(locale, ruleset, "A witness reports: “{text}”", text=SCENE) in group
        assert said(locale, ruleset, "The letter reads: “{text}”", text=LETTER) in group

    row, log, _, outbox = asyncio.run(stored(tmp_path / "game.sqlite3"))
    assert row.status == "ended", "the game was played to its end"
    assert row.version == len(log)
    assert all(r.status in ("sent", "superseded") for r in outbox), \
        [(r.id, r.status) for r in outbox if r.status not in ("sent", "superseded")]
    if locale != "en":
        found = leaks(lines, locale)
        assert not found, "\n".join(f"{problem}: {line}" for line, problem in found)
