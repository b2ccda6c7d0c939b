"""Commands in the bot's texts are written with the platform's prefix (`!vote` on Matrix),
and nothing else that has a slash changes."""

from __future__ import annotations

import pytest

from core.i18n import Renderer, with_prefix


@pytest.mark.parametrize(("template", "expected"), [
    ("Join with /join; /vote NAME.", "Join with !join; !vote NAME."),
    ("(/status) «/help» “/pass”", "(!status) «!help» “!pass”"),
    ("write /{command} NAME NAME", "write !{command} NAME NAME"),
    ("Напиши /ДЕЙСТВИЕ ИМЯ", "Напиши !ДЕЙСТВИЕ ИМЯ"),
    ("https://example.org/a/b", "https://example.org/a/b"),
    ("1/2, and/or, Europe/Berlin, a / b, /1", "1/2, and/or, Europe/Berlin, a / b, /1"),
])
def test_only_commands_get_the_prefix(template, expected):
    assert with_prefix(template, "!") == expected
    assert with_prefix(template, "/") == template


def test_what_fills_a_text_is_never_changed():
    renderer = Renderer("en", {}, str, command_prefix="!")
    assert renderer.text("{name} says /vote", {"name": "/vote Ann"}) == "/vote Ann says !vote"
    german = Renderer("de", {}, str, command_prefix="!")
    assert "!vote NAME" in german.text("Time to vote: who gets your vote? Choose below, or "
                                       "write /vote NAME.")
