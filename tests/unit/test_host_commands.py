"""The host's first commands (issue 32, problem 9): `nightfall play` says when it goes on with
a saved game and how to start afresh; the SQLite files it leaves are ignored by git;
`demo` and `simulate` take their player limits from the rule sets, refusing a count a rule set
cannot seat with its range and a non-zero exit."""

from __future__ import annotations

import io
import subprocess

import pytest
from click.testing import CliRunner

from adapters.console.play import run_play
from core.cli import main
from core.engine.registry import load_ruleset

from ..conftest import ROOT


async def test_play_says_it_resumes_a_saved_game_and_how_to_start_fresh(tmp_path):
    db = f"sqlite://{tmp_path / 'nightfall.sqlite3'}"
    first = io.StringIO()
    await run_play(io.StringIO("Ann: /newgame\nBob: /join\n"), db, "en", "manual", 1, first)
    assert "resuming" not in first.getvalue()
    again = io.StringIO()
    await run_play(io.StringIO("Cid: /join\n"), db, "en", "manual", 1, again)
    [line, *rest] = again.getvalue().splitlines()
    assert line.startswith("[console] resuming saved game 1 (changelings, its sign-up, "
                           "2 players)")
    assert f"delete {tmp_path / 'nightfall.sqlite3'}" in line and "another --db" in line
    assert any("Ann, Bob, and Cid" in later for later in rest)  # and it did go on with it


def test_the_databases_play_leaves_behind_are_ignored_by_git():
    names = ["nightfall.sqlite3", "nightfall.sqlite3-wal", "nightfall.sqlite3-shm"]
    done = subprocess.run(["git", "check-ignore", *names], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.stdout.split() == names


@pytest.mark.parametrize(("command", "ruleset", "players"), [
    ("demo", "alchemists", 6), ("demo", "alchemists", 21), ("demo", "changelings", 5),
    ("simulate", "alchemists", 8), ("simulate", "changelings", 31),
    ("simulate", "changelings", 2),
])
def test_a_player_count_the_rule_set_cannot_seat_is_refused_with_its_range(command, ruleset,
                                                                           players):
    low, high = (load_ruleset(ruleset).min_players, load_ruleset(ruleset).max_players)
    games = ["--games", "1"] if command == "simulate" else []
    result = CliRunner().invoke(main, [command, "--ruleset", ruleset, "--players",
                                       str(players), *games])
    assert result.exit_code != 0
    assert f"{ruleset} takes {low} to {high} players" in result.output


@pytest.mark.parametrize("command", ["demo", "simulate"])
def test_the_help_shows_each_rule_sets_range(command):
    result = CliRunner().invoke(main, [command, "--help"])
    text = " ".join(result.output.split())
    for ruleset in ("changelings", "alchemists"):
        found = load_ruleset(ruleset)
        assert f"{ruleset} {found.min_players}–{found.max_players}" in text
    assert "2–60" not in text and "6<=x<=20" not in text
