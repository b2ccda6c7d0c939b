"""A Matrix configuration that is valid but makes the bot fail quietly is said aloud (issue 32,
problem 5): `check-config` (and `nightfall run`, through the same `config_warnings`) prints one
line naming the key when `allow` is empty (every invite would be declined) and when
`[matrix.rates]` is too slow for the quick pace (a ballot held past the shortest window, a
full table's start waiting longer than the longest window); Synapse's default is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from adapters.matrix.warnings import Table, rate_warnings
from core.cli import main
from core.config import load_settings
from core.plugins import config_warnings
from core.service import RateLimits


@pytest.fixture(autouse=True)
def _no_environment(monkeypatch):
    for name in list(__import__("os").environ):
        if name.startswith("NIGHTFALL_"):
            monkeypatch.delenv(name)


def config(tmp_path: Path, matrix: str, rates: str = "") -> Path:
    path = tmp_path / "nightfall.toml"
    path.write_text(f'[database]\nurl = "sqlite://{tmp_path / "db.sqlite3"}"\n'
                    f'[matrix]\nenabled = true\nuser_id = "@bot:example.org"\n'
                    f'password = "secret"\n{matrix}\n[matrix.rates]\n{rates}\n',
                    encoding="utf-8")
    return path


def check(path: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["check-config", str(path)])
    return result.exit_code, result.stdout, result.stderr


def test_an_empty_allow_list_is_a_loud_warning_naming_the_key(tmp_path):
    code, out, err = check(config(tmp_path, "allow = []"))
    assert code == 0 and "valid" in out  # valid: the host may mean it, but he is told
    lines = [line for line in err.splitlines() if "matrix.allow" in line]
    assert len(lines) == 1 and lines[0].startswith("WARNING: matrix.allow is empty")
    assert "declines every invite" in lines[0] and '"@host:example.org"' in lines[0]


def test_a_listed_host_and_unlimited_rates_warn_of_nothing(tmp_path):
    code, out, err = check(config(tmp_path, 'allow = ["@host:example.org"]', "overall = 0"))
    assert code == 0 and "valid" in out and err == ""


def test_synapses_default_rate_fits_the_quick_pace_and_warns_of_nothing(tmp_path):
    """At Synapse's default (0.2 a second, the bot's burst 8) a full table's start (34
    messages) goes out in 130 s, which the first window waits for (deadlines.py), within
    the longest quick window (4 minutes), and a ballot waits 20 s at worst: nothing to say."""
    code, out, err = check(config(tmp_path, 'allow = [":example.org"]'))
    assert code == 0 and "valid" in out and err == ""


def test_rates_too_slow_for_a_full_table_say_up_to_how_many_players_fit(tmp_path):
    _, _, err = check(config(tmp_path, 'allow = [":example.org"]', "overall = 0.1"))
    [line] = err.splitlines()
    assert line.startswith("WARNING: matrix.rates.overall = 0.1 messages/s (burst 8)")
    assert "alchemists up to 18 players (20 wait 260 s, its longest window 240 s)" in line
    assert "changelings up to 28 players (30 wait 260 s" in line
    assert "!pace forum" in line and "docs/matrix.md" in line


def test_a_start_is_counted_from_the_rule_set():
    from adapters.matrix.warnings import installed_tables, start_rows

    tables = {t.ruleset: t for t in installed_tables()}
    assert (tables["changelings"].longest_quick, tables["alchemists"].longest_quick) == \
        (240.0, 240.0)
    assert start_rows("changelings", 30) == 4 + 30  # the group's four, a card each
    assert start_rows("alchemists", 20) > 4 + 20  # and the first night's prompts


def test_rates_that_hold_a_ballot_past_the_shortest_window_are_named(tmp_path):
    _, _, err = check(config(tmp_path, 'allow = [":example.org"]', "overall = 0.05"))
    assert any(line.startswith("WARNING: matrix.rates.overall = 0.05 messages/s (burst 8) "
                               "holds a game's ballot 80 s") for line in err.splitlines())


def test_the_arithmetic_of_the_rates():
    big = Table("big", 45.0, 60.0, 5, 30, lambda n: n + 4)
    small = Table("small", 90.0, 90.0, 9, 9, lambda n: 2 * n)
    tables = [big, small]
    assert rate_warnings(RateLimits(overall=0.0), tables) == []
    # 60 s × 1/s + burst 8 = 68 messages: 64 role cards beside the start's four
    assert rate_warnings(RateLimits(overall=1.0, overall_burst=8), tables) == []
    # at 0.5/s: 30 players wait (34 - 8) / 0.5 = 52 s < 60 s; at 0.4/s, 65 s: 28 fit (60 s)
    assert rate_warnings(RateLimits(overall=0.5, overall_burst=8), tables) == []
    [line] = rate_warnings(RateLimits(overall=0.4, overall_burst=8), tables)
    assert "big up to 28 players (30 wait 65 s, its longest window 60 s)" in line
    assert "small" not in line
    [_, slow] = rate_warnings(RateLimits(overall=0.05, overall_burst=8), tables)
    assert "small at no size (9 wait 200 s" in slow


def test_start_up_reads_the_same_warnings(tmp_path):
    settings = load_settings(config(tmp_path, "allow = []"))
    assert config_warnings(settings)[0].startswith("matrix.allow is empty")
