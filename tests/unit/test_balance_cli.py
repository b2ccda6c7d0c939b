"""`nightfall balance`: the tables' answer at once (`--quick`), an estimate in the worker
process with its progress (random players and a few seconds, to stay fast), and the refusals
of a table the rules do not allow."""

from __future__ import annotations

from click.testing import CliRunner

from core.cli import main


def test_the_tables_answer_at_once_in_each_language():
    result = CliRunner().invoke(main, ["balance", "--players", "12", "--quick"])
    assert result.exit_code == 0, result.output
    assert "Balance of Changelings for 12 players: Researcher" in result.stdout
    assert "Informed play, regular table: the ponies" in result.stdout
    assert "Win rate of the ponies by the table's skill: new table" in result.stdout
    result = CliRunner().invoke(main, ["balance", "--players", "12", "--quick", "--locale",
                                       "de", "--skill", "sharp"])
    assert "Mit informierten Spielern, scharfsinnige Runde: Ponys" in result.stdout


def test_a_custom_list_is_estimated_in_the_worker():
    roles = "changeling,changeling,researcher,shield,pony,pony,pony,pony"
    result = CliRunner().invoke(main, ["balance", "--players", "8", "--roles", roles,
                                       "--option", "random_lovers=off", "--players-play",
                                       "random", "--seconds", "3"])
    assert result.exit_code == 0, result.output
    assert "estimating … done" in result.stderr
    assert "Balance of Changelings for 8 players: Researcher, Anti-Hate-Shield, " \
           "and 2 × Changeling." in result.stdout
    assert "From " in result.stdout and "simulated games" in result.stdout


def test_refusals():
    five = ",".join(["changeling"] * 5 + ["pony"] * 5)
    result = CliRunner().invoke(main, ["balance", "--players", "10", "--roles", five])
    assert result.exit_code == 2 and "does not allow this role list" in result.output
    result = CliRunner().invoke(main, ["balance", "--players", "9", "--roles", five])
    assert result.exit_code == 2 and "one role per player" in result.output
    result = CliRunner().invoke(main, ["balance", "--option", "nonsense=1"])
    assert result.exit_code == 2 and "Unknown option" in result.output
