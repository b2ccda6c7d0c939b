"""End to end: `nightfall play` as a real subprocess plays whole scripted games of both rule
sets, and survives being killed with SIGKILL in the middle of a night."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adapters.console.adapter import ConsoleAdapter
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.service.delivery.rendering import render_text
from core.service.messages.payloads import ORDERS, from_json
from core.storage.db import close_db, open_db
from core.storage.models import Deadline, GameRecord, LogEntry, Outbox
from rulesets.changelings.voice import OWN

SCRIPTS = Path(__file__).parent / "scripts"
# what a keyboard says once a choice is pressed, in the pony game's voice
CHOSE_GUS = {f"[to Eve] {variant.format(action='Check', name='Gus')}"
             for variant in load_ruleset("changelings").voice["CHOICE_ACTION_ON"]}
NIGHTFALL = str(Path(sys.executable).parent / "nightfall")


def play(db: Path, script: str, *args: str) -> list[str]:
    result = subprocess.run([NIGHTFALL, "play", "--db", f"sqlite://{db}", "--seed", "11", *args],
                            input=script, capture_output=True, text=True, timeout=120,
                            check=True)
    return result.stdout.splitlines()


async def stored(db: Path) -> tuple[GameRecord, list[LogEntry], list[Deadline], list[Outbox]]:
    await open_db(f"sqlite://{db}")
    try:
        row = await GameRecord.all().order_by("-id").first()
        return (row, await LogEntry.all().order_by("seq"), await Deadline.all().order_by("id"),
                await Outbox.all().order_by("id"))
    finally:
        await close_db()


@pytest.mark.parametrize("ruleset,winner", [
    ("changelings", "the ponies win"),
    ("alchemists", "The State Alchemists have won"),
])
def test_a_whole_scripted_game(tmp_path, ruleset, winner):
    script = (SCRIPTS / f"{ruleset}_full_game.play").read_text(encoding="utf-8")
    lines = play(tmp_path / "game.sqlite3", script)
    assert any(winner in line for line in lines), "\n".join(lines[-15:])
    row, log, _, _ = asyncio.run(stored(tmp_path / "game.sqlite3"))
    assert row.status == "ended"
    assert row.version == len(log)
    refusals = [line for line in lines if "not valid" in line or "I don't know" in line]
    assert not refusals


def test_sigkill_in_the_middle_of_a_night_loses_nothing_and_repeats_nothing(tmp_path):
    db = tmp_path / "crash.sqlite3"
    script = (SCRIPTS / "changelings_full_game.play").read_text(encoding="utf-8").splitlines()
    night = script.index("Fay> [Eve]")  # the shield has not acted yet: the dusk stays open
    first = subprocess.Popen([NIGHTFALL, "play", "--db", f"sqlite://{db}", "--seed", "11"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert first.stdin is not None and first.stdout is not None
    first.stdin.write("\n".join(script[:night]) + "\n")
    first.stdin.flush()
    before = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until the researcher's check was acknowledged
        line = first.stdout.readline()
        before.append(line.rstrip("\n"))
        if before[-1] in CHOSE_GUS:  # her keyboard says what she chose, then that it may
            before.append(first.stdout.readline().rstrip("\n"))  # change: its next line
            break
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    assert first.returncode == -signal.SIGKILL

    after = play(db, ":wait 2m\n")  # the overdue dusk closes after the restart
    assert after[0].startswith("[console] resuming saved game 1 (changelings, the game, ")
    row, log, deadlines, outbox = asyncio.run(stored(db))
    everything = before + after
    assert any(line.startswith("[group]") and "Bob" in line and "a pony" in line
               for line in after)
    assert {f"[to Eve] {text.format(name='Gus', role='a changeling')}"
            for text in OWN["CHECK_RESULT"]} & set(after), after
    dusk_closes = [e for e in log if e.command["type"] == "Close"]
    closed = [d for d in deadlines if d.kind == "close" and d.state == "fired"]
    assert len(dusk_closes) == len(closed)
    assert len({d.window for d in closed}) == len(closed)
    printed = [line for line in everything
               if line and " buttons: " not in line and not line.startswith(("[notice",
                                                                             "[console]"))]
    delivered = [row for row in outbox if row.status in ("sent", "unknown")
                 and not isinstance(from_json(row.payload), ORDERS)]
    assert len(printed) == printed_lines(delivered), "every delivered message printed exactly once"
    # an edited message (the sign-up list, the ballot, a keyboard) prints only what changed,
    # also across the restart: the vote prompt and the sign-up's opening appear once
    assert sum(line.startswith("[group] Ann opens a game of Changelings.")
               for line in printed) == 1
    assert len({line for line in printed if line.startswith("[group] ")}) == \
        sum(line.startswith("[group] ") for line in printed)
    assert all(row.status in ("sent", "superseded", "unknown") for row in outbox)
    assert row.status == "running"


@pytest.mark.parametrize("ruleset", ["changelings", "alchemists"])
def test_the_demo_plays_a_whole_game(ruleset):
    result = subprocess.run([NIGHTFALL, "demo", "--ruleset", ruleset, "--seed", "4",
                             "--locale", "ru"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert len(lines) > 50
    assert any("[group]" in line for line in lines[-30:])
    assert not [line for line in lines if "Your choice" in line or "Votes so far" in line]


def test_the_last_nights_private_news_comes_before_the_groups_summary():
    """Seed 2 ends in the night in which the changelings exchange a pony: the newcomer and
    the hive read their news (in private and in the team) before the group reads who was
    who, the game's last word."""
    result = subprocess.run([NIGHTFALL, "demo", "--ruleset", "changelings", "--seed", "2",
                             "--players", "8"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    over = max(i for i, line in enumerate(lines) if line.startswith("[group] The game is over"))
    assert any("one of you now" in line for line in lines[over - 6:over]), lines[over - 12:]
    assert not [line for line in lines[over:] if not line.startswith("[group] ")]


def printed_lines(delivered: list[Outbox]) -> int:
    """The lines the console prints for the delivered rows, counted as it prints them: a
    message's non-empty lines, and of a newer version of a message edited in place only the
    lines the last version did not have (a part may hold several lines: the role card)."""
    words = ConsoleAdapter.wording
    renderer = Renderer("en", load_ruleset("changelings").vocabulary, str, words.prefix,
                        "changelings", words.howto, words.catalog)
    shown: dict[tuple[object, str], list[str]] = {}
    count = 0
    for row in delivered:
        payload = from_json(row.payload)
        lines = [line for line in render_text(renderer, payload.parts).split("\n") if line]
        key = getattr(payload, "replace", None)
        before = shown.get((row.identity_id, key)) if key else None
        count += len(lines) if before is None else sum(line not in before for line in lines)
        if key:
            shown[row.identity_id, key] = lines
    return count


@pytest.mark.parametrize("ruleset", ["changelings", "alchemists"])
def test_no_player_reads_the_same_prompt_every_night(ruleset):
    """Over a whole demo game, each player offered an action on several nights is shown the
    prompt in more than one of the game's variants, and the group's vote prompt varies."""
    result = subprocess.run([NIGHTFALL, "demo", "--ruleset", ruleset, "--seed", "4"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    voice = load_ruleset(ruleset).voice
    asking = [re.compile(re.escape(v).replace(re.escape("{action}"), ".+") + "$")
              for v in voice["ACTION_PROMPT"]]
    seen: dict[str, list[int]] = {}
    for line in result.stdout.splitlines():
        who, _, text = line.partition("] ")
        for index, pattern in enumerate(asking):
            if who.startswith("[to ") and pattern.match(text):
                seen.setdefault(who, []).append(index)
    often = {who: shown for who, shown in seen.items() if len(shown) > 1}
    assert often, "nobody was prompted on two nights"
    assert all(len(set(shown)) > 1 for shown in often.values()), often
    votes = {line for line in result.stdout.splitlines()
             if line.removeprefix("[group] ") in voice["VOTE_PROMPT"]}
    assert len(votes) > 1
