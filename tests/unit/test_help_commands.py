"""The group's /help names every command the story of a game brought, in every language:
/stats and /stats group for everybody, /archivechats for the host (and Telegram's group
menu lists them)."""

from __future__ import annotations

import pytest

from adapters.telegram.menus import GROUP_COMMANDS
from core.i18n import translations
from core.service.messages.texts import HELP_GROUP


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
def test_the_group_help_names_stats_and_the_archive_setting(locale: str) -> None:
    said = translations(locale).gettext(HELP_GROUP)
    for command in ("/stats ", "/stats group", "/archivechats on|off"):
        assert command in said, (locale, command)


def test_the_group_menu_lists_them_too() -> None:
    assert {"stats", "archivechats"} <= {word for word, _ in GROUP_COMMANDS}
