"""A Matrix configuration that is valid but makes the bot fail quietly is said aloud (issue 32,
problem 5): `check-config` (and `nightfall run`, through the same `config_warnings`) prints one
line naming the key when `allow` is empty (every invite would be declined) and when
`[matrix.rates]` is too slow for the quick pace (a ballot held past the shortest window, a
full table's start later than the window the game opens with)."""

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


def test_synapses_default_rate_says_up_to_how_many_players_the_quick_pace_fits(tmp_path):
    """At Synapse's default (0.2 a second, the bot's burst 8) a full pony table's start (34
    messages) reaches everyone in 130 s, within the election it opens with (3 minutes): no
    word of changelings. The alchemists open with a 90 s night, in which twenty players'
    cards and the first prompts (34 messages) take 130 s: that one warning, with the largest
    table that fits."""
    _, _, err = check(config(tmp_path, 'allow = [":example.org"]'))
    [line] = err.splitlines()
    assert line.startswith("WARNING: matrix.rates.overall = 0.2 messages/s (burst 8)")
    assert "only up to 12 in alchemists (20 take 130 s, its first window, night, 90 s)" in line
    assert "a longer first window (!timer night 3m) or !pace forum" in line
    assert "changelings" not in line and "ballot" not in line and "docs/matrix.md" in line


def test_a_start_is_measured_against_the_window_the_game_opens_with():
    from adapters.matrix.warnings import installed_tables, start_rows

    tables = {t.ruleset: t for t in installed_tables()}
    assert (tables["changelings"].first_window, tables["changelings"].first_quick) == \
        ("election", 180.0)
    assert (tables["alchemists"].first_window, tables["alchemists"].first_quick) == \
        ("night", 90.0)
    assert start_rows("changelings", 30) == 4 + 30  # the group's four, a card each
    assert start_rows("alchemists", 20) > 4 + 20  # and the first night's prompts


def test_rates_that_hold_a_ballot_past_the_shortest_window_are_named(tmp_path):
    _, _, err = check(config(tmp_path, 'allow = [":example.org"]', "overall = 0.05"))
    assert any(line.startswith("WARNING: matrix.rates.overall = 0.05 messages/s (burst 8) "
                               "holds a game's ballot 80 s") for line in err.splitlines())


def test_the_arithmetic_of_the_rates():
    big = Table("big", 45.0, "day", 60.0, 5, 30, lambda n: n + 4)
    small = Table("small", 90.0, "night", 90.0, 9, 9, lambda n: 2 * n)
    tables = [big, small]
    assert rate_warnings(RateLimits(overall=0.0), tables) == []
    # 60 s × 1/s + burst 8 = 68 messages: 64 role cards beside the start's four
    assert rate_warnings(RateLimits(overall=1.0, overall_burst=8), tables) == []
    # at 0.5/s: 30 players take (34 - 8) / 0.5 = 52 s < 60 s; at 0.4/s, 65 s: 28 fit (60 s)
    assert rate_warnings(RateLimits(overall=0.5, overall_burst=8), tables) == []
    [line] = rate_warnings(RateLimits(overall=0.4, overall_burst=8), tables)
    assert "up to 28 in big (30 take 65 s, its first window, day, 60 s)" in line
    assert "small" not in line


def test_start_up_reads_the_same_warnings(tmp_path):
    settings = load_settings(config(tmp_path, "allow = []"))
    assert config_warnings(settings)[0].startswith("matrix.allow is empty")
