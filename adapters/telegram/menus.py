"""The bot's command menus (`setMyCommands`): one for groups, one for private chats, in every
language the bot speaks. Telegram shows each user the menu in their app's language."""

from __future__ import annotations

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from core.engine.messages import N_
from core.i18n import SOURCE_LOCALE, available_locales, translations

GROUP_COMMANDS = (
    ("newgame", N_("Open sign-up for a new game")),
    ("join", N_("Join the game")),
    ("leave", N_("Leave the sign-up")),
    ("startgame", N_("Deal the roles and begin (host)")),
    ("vote", N_("Vote: /vote NAME")),
    ("unvote", N_("Withdraw your vote")),
    ("early", N_("Ready to end the day early")),
    ("status", N_("Phase, time left, who has not voted")),
    ("rules", N_("The rules of this game")),
    ("roles", N_("The roles of this game")),
    ("role", N_("What a role does: /role NAME")),
    ("nextgame", N_("Tell me when the next game opens")),
    ("stats", N_("Finished games: mine, or /stats group")),
    ("flee", N_("Leave the running game")),
    ("language", N_("Language of this chat: de, ru or en")),
    ("help", N_("All commands")),
    ("endgame", N_("End the game (host)")),
    ("timer", N_("How long a window lasts: /timer vote 10m (host)")),
    ("archivechats", N_("Team chats on the archive page: on|off (host)")),
    ("settings", N_("What this group keeps for its next games; /settings reset (host)")),
    ("config", N_("Settings menu in the private chat (host)")),
)
PRIVATE_COMMANDS = (
    ("help", N_("How to act at night")),
    ("pass", N_("Do nothing tonight")),
    ("status", N_("Where the game is, what is open for me")),
    ("myrole", N_("My role and all I have learned")),
    ("flee", N_("Leave the running game")),
    ("language", N_("My language: de, ru or en")),
    ("config", N_("Settings of the game I host")),
    ("timer", N_("Timers of the game I host: /timer vote 10m")),
)
Scope = BotCommandScopeAllGroupChats | BotCommandScopeAllPrivateChats
SCOPES: tuple[tuple[Scope, tuple[tuple[str, str], ...]], ...] = (
    (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
    (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS))


def menus() -> list[tuple[Scope, str | None, list[BotCommand]]]:
    """(scope, language code or None for the default, commands) for every menu to set."""
    result: list[tuple[Scope, str | None, list[BotCommand]]] = []
    for scope, commands in SCOPES:
        for locale in available_locales():
            t = translations(locale)
            shown = [BotCommand(word, t.gettext(text)) for word, text in commands]
            result.append((scope, None if locale == SOURCE_LOCALE else locale, shown))
    return result
