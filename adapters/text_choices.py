"""Buttons for platforms that have none: a keyboard written as numbered options, answered by
writing an option's number or its label (pure functions, shared by the console, Matrix and
any text-only adapter such as IRC).

Remembering which keyboard is the newest in a chat is the adapter's own business (where it
keeps it differs), as is how a press arrives (a line `Ann: [Bob]`, a Matrix keycap
reaction); what a written answer means is the same everywhere, and so is said here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.service import ButtonOut

NUMBER = re.compile(r"^\s*#?(\d{1,3})[.)]?\s*$")


def numbered(labels: Sequence[str], marks: Sequence[str] = ()) -> str:
    """One line per option: its mark (a Matrix keycap) while there are marks, then `11. Kim`."""
    return "\n".join(f"{marks[i]} {label}" if i < len(marks) else f"{i + 1}. {label}"
                     for i, label in enumerate(labels))


def with_options(text: str, labels: Sequence[str], marks: Sequence[str] = ()) -> str:
    """A message with its options numbered under it (the text alone when there are none)."""
    return f"{text}\n\n{numbered(labels, marks)}" if labels else text


def number_written(typed: str) -> int | None:
    """A written option number: `2`, `2.`, `#2`, `2)`."""
    match = NUMBER.match(typed)
    return int(match.group(1)) if match else None


def label_written(typed: str, labels: Sequence[str]) -> int | None:
    """The option (from 1) whose label is exactly what the person wrote, case and spacing
    aside."""
    wanted = " ".join(typed.split()).casefold()
    if not wanted:
        return None
    for number, label in enumerate(labels, start=1):
        if " ".join(label.split()).casefold() == wanted:
            return number
    return None


def chosen(typed: str, labels: Sequence[str]) -> int | None:
    """The option (from 1) a person chose by its number or its label; None for a number
    that is no option, or a text that names none."""
    number = number_written(typed) or label_written(typed, labels)
    return number if number is not None and 1 <= number <= len(labels) else None


def token_by_label(typed: str, buttons: Sequence[ButtonOut]) -> str | None:
    """The token of the button whose label the person wrote (a line `Ann: [Bob]`)."""
    number = label_written(typed, [button.label for button in buttons])
    return None if number is None else buttons[number - 1].token
