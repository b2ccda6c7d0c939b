"""The scenario runner itself: output lines, exit codes, and clear errors for invalid files."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from core.cli import main

GOOD = """\
ruleset: changelings
options: {random_lovers: false}
players: [Ann, Bob, Cid, Dot, Eve, Fay]
roles: {Ann: changeling, Bob: changeling, Cid: researcher, Dot: pony, Eve: pony, Fay: pony}
start: "night 1 dusk"
steps:
  - act: {by: Cid, action: check, target: Ann}
  - close
  - expect: {learned: {Cid: {Ann: changeling}}, phase: "night 1 dawn"}
"""


def run(tmp_path: Path, files: dict[str, str], *extra: str):
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["scenario", str(tmp_path), *extra])


def test_a_passing_file_prints_pass_and_the_count(tmp_path):
    result = run(tmp_path, {"good.yaml": GOOD})
    assert result.exit_code == 0
    assert result.output.splitlines() == ["PASS good", "1 passed, 0 failed"]


def test_a_failing_expectation_names_the_step_and_exits_1(tmp_path):
    bad = GOOD.replace("phase: \"night 1 dawn\"", "phase: \"day 2 vote\"")
    result = run(tmp_path, {"good.yaml": GOOD, "wrong.yaml": bad})
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[-1] == "1 passed, 1 failed"
    assert lines[1].startswith("FAIL wrong: step 3: expected phase")


EXPECT = "learned: {Cid: {Ann: changeling}}"


@pytest.mark.parametrize("change,step,problem", [
    (("roles:", "rolez:"), 0, "unknown key 'rolez'"),
    (("Cid: researcher,", "Cid: wizard,"), 0, "unknown role id 'wizard'"),
    (("steps:", "steps: [\n"), 0, ""),
    (("ruleset:", "seed: abc\nruleset:"), 0, "seed must be an integer"),
    (("options: {random_lovers: false}", "options: 5"), 0, "options must be a mapping"),
    (("random_lovers: false", "inactivity_hours: -4"), 0, "inactivity_hours has a wrong value"),
    (('start: "night 1 dusk"', "start: 5"), 0, "Unknown phase: 5"),
    (("action: check", "action: fly"), 1, "unknown action id 'fly'"),
    (("target: Ann", "target: Zed"), 1, "unknown player 'Zed'"),
    (("  - close", "  - sleep: 1"), 2, "unknown step"),
    (("  - close", "  - host: {command: extend, minutes: abc}"), 2,
     "minutes must be a whole number"),
    (("  - close", "  - host: {command: explode}"), 2, "unknown host command 'explode'"),
    (("target: Ann}", "target: Ann}\n    refused: maybe"), 1, "refused must be true or false"),
    ((EXPECT, "learned: {Cid: Ann}"), 3, "bad value for learned"),
    ((EXPECT, "removed: [Ann]"), 3, "bad value for removed"),
    ((EXPECT, "removed: {Ann: vaporized}"), 3, "unknown cause id 'vaporized'"),
    ((EXPECT, "causes: {vaporized: 0}"), 3, "unknown cause id 'vaporized'"),
    ((EXPECT, "roles: {Ann: wizard}"), 3, "unknown role id 'wizard'"),
    ((EXPECT, "sides: {Ann: pirates}"), 3, "unknown side id 'pirates'"),
    ((EXPECT, "status: {Ann: [sleepy]}"), 3, "unknown status id 'sleepy'"),
])
def test_invalid_files_say_file_step_and_problem_without_a_traceback(
        tmp_path, change, step, problem):
    """`FAIL name: step N: invalid file PATH: problem`, or without the step for the top level."""
    result = run(tmp_path, {"broken.yaml": GOOD.replace(*change)})
    assert result.exit_code == 1
    line = result.output.splitlines()[0]
    where = f"step {step}: " if step else ""
    assert line.startswith(f"FAIL broken: {where}invalid file {tmp_path / 'broken.yaml'}: ")
    assert problem in line
    assert "Traceback" not in result.output


def test_a_file_that_is_not_utf8_is_invalid_without_a_traceback(tmp_path):
    (tmp_path / "bytes.yaml").write_bytes(b"\xff\xfe not text")
    result = CliRunner().invoke(main, ["scenario", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.startswith("FAIL bytes: ") and "invalid file" in result.output
    assert "Traceback" not in result.output


def test_a_refused_step_must_be_refused_and_change_nothing(tmp_path):
    text = GOOD.replace("  - close\n", "  - act: {by: Cid, action: check, target: Cid}\n"
                        "    refused: true\n  - close\n")
    assert run(tmp_path, {"r.yaml": text}).exit_code == 0
    accepted = GOOD.replace("  - close\n", "  - act: {by: Cid, action: check, target: Bob}\n"
                            "    refused: true\n  - close\n")
    result = run(tmp_path, {"r.yaml": accepted})
    assert "was accepted, expected a refusal" in result.output


def test_show_prints_group_posts_and_private_messages(tmp_path):
    result = run(tmp_path, {"good.yaml": GOOD}, "--show")
    assert "[to Cid] Your check: Ann is a changeling." in result.output
    assert "[group] Night 1 falls" in result.output


def test_no_files_is_a_failure(tmp_path):
    result = CliRunner().invoke(main, ["scenario", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "0 passed, 0 failed"
