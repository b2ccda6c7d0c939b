"""The group's /help (its four parts together) names every command the story of a game
brought, in every language: /stats and /stats group for everybody, /archivechats for the
host (and Telegram's group menu lists them)."""

from __future__ import annotations

import pytest

from adapters.telegram.menus import GROUP_COMMANDS
from core.i18n import translations
from core.service.commands.guidance import HELP_PARTS


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
def test_the_group_help_names_stats_and_the_archive_setting(locale: str) -> None:
    said = " ".join(translations(locale).gettext(part) for part in HELP_PARTS)
    for command in ("/stats ", "/stats group", "/archivechats on|off"):
        assert command in said, (locale, command)


def test_the_group_menu_lists_them_too() -> None:
    assert {"stats", "archivechats"} <= {word for word, _ in GROUP_COMMANDS}
