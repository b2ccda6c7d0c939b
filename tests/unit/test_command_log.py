"""The command log in the database outlives the code that wrote it: rows stored before each
host power had a command of its own (`Host(command, target, by, minutes, text, at, extra)`)
still read as the command they were, and every command reads back as it was written."""

from __future__ import annotations

import pytest

from core.engine import (
    Act,
    Announce,
    Close,
    Extend,
    Force,
    Leave,
    MarkEarly,
    Modkill,
    Pause,
    Replace,
    Resume,
    Say,
    Tick,
    Vote,
    Whisper,
)
from core.engine.log_codec import command_from_json, command_to_json


def old_host(command: str, **fields: object) -> dict[str, object]:
    row: dict[str, object] = {"type": "Host", "command": command, "target": None, "by": None,
                              "minutes": 0, "text": None, "at": 12.5, "extra": {}}
    row.update(fields)
    return row


@pytest.mark.parametrize(("row", "command"), [
    (old_host("pause"), Pause(at=12.5)),
    (old_host("pause", extra={"reason": "unreachable"}), Pause(unreachable=True, at=12.5)),
    (old_host("resume"), Resume(at=12.5)),
    (old_host("extend", minutes=-30), Extend(-30, at=12.5)),
    (old_host("force"), Force(at=12.5)),
    (old_host("modkill", target="p3"), Modkill("p3", at=12.5)),
    (old_host("replace", target="p7", by="Zoe"), Replace("p7", "Zoe", at=12.5)),
    (old_host("announce", text="Break until 8"), Announce("Break until 8", at=12.5)),
])
def test_an_old_host_row_reads_as_its_own_command(row, command):
    assert command_from_json(row) == command


@pytest.mark.parametrize("command", [
    Act("p1", "check", ("p2",), None, None, at=1.0), Vote("p1", None), MarkEarly("p2"),
    Say("p3"), Whisper("p1", "hi", "p2"), Leave("p4"), Close(at=3.0), Tick(),
    Pause(unreachable=True), Resume(), Extend(5), Force(), Modkill("p1"),
    Replace("p2", "Zoe"), Announce("Hello"),
])
def test_every_command_reads_back_as_written(command):
    assert command_from_json(command_to_json(command)) == command
