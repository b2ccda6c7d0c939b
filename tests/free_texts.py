"""What the host and players write in their own words (an announcement, the Mare Do Well's
letter, an abduction's scene, a team whisper), and the sentences their readers must get it
in, in the game's language: shared by the whole games of the console, Telegram and Matrix
(tests/e2e/test_free_texts.py, tests/telegram/test_free_texts.py,
tests/matrix/test_free_texts.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from core.engine.forms import RoleForm, role_form
from core.engine.messages import Ref
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from rulesets.changelings.flavour import REMOVED
from tests.service.test_native_texts import PICTURE, problems

SHORT = "Halt"  # four characters, the length an earlier codec took for an encoded text
ANNOUNCED = "Tee <5> & «Ёлка» 🎄 — ok?!"  # markup characters, emoji, Cyrillic
SCENE = "Ich sah Flügel im Nebel, «крылья»! 🦋"
LETTER = "Cid lügt — «лжец»! 🐴"
WHISPER = "Heute Nacht, «тихо»? 🤫"
FREE = (SHORT, ANNOUNCED, SCENE, LETTER, WHISPER)


def said(locale: str, ruleset: str, key: str, plural: str | None = None,
         count: int | None = None, prefix: str = "/", **params: Any) -> str:
    """A message as its reader gets it in `locale` (players named by their names)."""
    renderer = Renderer(locale, load_ruleset(ruleset).vocabulary, str, prefix, ruleset)
    counted = {"count": count} if plural is not None else {}
    return renderer.render_parts(key, plural, count, {**counted, **params})


def host_sentences(locale: str, ruleset: str, prefix: str = "/") -> dict[str, str]:
    """What the group reads when the host announces both texts, pauses, resumes, extends by
    five minutes and forces the phase to close."""
    def group(key: str, plural: str | None = None, count: int | None = None,
              **params: Any) -> str:
        return said(locale, ruleset, key, plural, count, prefix, **params)
    return {
        "announce short": group("Announcement from the host: {text}", text=SHORT),
        "announce": group("Announcement from the host: {text}", text=ANNOUNCED),
        "pause": group("The host paused the game. Nothing counts until it resumes."),
        "resume": group("The host resumed the game."),
        "extend": group("The host extended the deadline by {count} minute.",
                        "The host extended the deadline by {count} minutes.", 5),
        "force": group("The host closes the current phase."),
    }


def replaced(locale: str, ruleset: str, newcomer: str, old: str) -> str:
    return said(locale, ruleset, "{new} takes over the seat of {old}.", new=newcomer, old=old)


def modkilled(locale: str, ruleset: str, name: str, role: str) -> set[str]:
    """The group's line on a player the host removed (the pony game has several)."""
    if ruleset == "alchemists":
        return {said(locale, ruleset, "{name} has been removed from the game.", name=name)}
    return {said(locale, ruleset, variant, name=name, role=Ref("role_was", role),
                 role_whom=role_form(role, RoleForm.WHOM))
            for variant in REMOVED["modkill"]}


def whispered(locale: str, ruleset: str, name: str, text: str = WHISPER) -> str:
    return said(locale, ruleset, "{name} whispers: {text}", name=name, text=text)


def witnessed(locale: str, text: str = SCENE) -> str:
    return said(locale, "changelings", "A witness reports: “{text}”", text=text)


def letter_read(locale: str, text: str = LETTER) -> str:
    return said(locale, "changelings", "The letter reads: “{text}”", text=text)


def leaks(lines: Iterable[str], locale: str, names: Iterable[str] = (),
          prefix: str = "/") -> list[tuple[str, list[str]]]:
    """The lines ("[reader] text") of a German or Russian game that hold an English word, a
    raw id or a placeholder; the free texts typed in the game are the players' own words,
    `names` players' names besides those of the console's games, and commands are written
    with `prefix`."""
    own = re.compile("|".join([*map(re.escape, FREE), *(rf"\b{re.escape(n)}\b" for n in names)]))
    command = re.compile(rf"(?<!\w){re.escape(prefix)}(?=\w)")
    shown = [command.sub("/", own.sub("…", line)) for line in lines if not PICTURE.match(line)]
    return [(line, found) for line, after in zip(shown, [*shown[1:], ""], strict=True)
            for found in [problems(line, after, locale)] if found]
