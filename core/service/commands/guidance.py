"""Finding one's way with the bot: the welcome of somebody in no game, the group's /help in
numbered parts, the greeting in a new group, a command sent in the wrong chat answered with
where it works, and the deep link that opens the private chat without a stored button.

A command that only a private chat takes is answered alike for everybody in the group — a
night action of any rule set's, /myrole, /pass — whatever the sender's role and whether he
plays at all, so that the answer tells the group nothing (docs/changelings-decisions.md,
"Commands in the wrong chat")."""

from __future__ import annotations

from functools import cache

from core.engine.registry import available, load_ruleset

from ..messages import guide
from ..messages.payloads import (
    KeyboardPayload,
    Part,
    PostPayload,
    StoredButton,
    TextLabel,
    TextPayload,
    part,
)
from ..ports.howto import HowTo, howto
from ..ports.replies import Reply
from ..ports.standing import Lack

#: the token prefix of a button that sends one part of the group's help privately
HELP_PART = "help-"

#: what only the private chat takes (besides every rule set's night actions)
PRIVATE_WORDS = frozenset({"myrole", "pass"})
#: what only the group takes (/newgame has its own answer)
GROUP_WORDS = frozenset({"join", "leave", "nextgame", "startgame", "option", "setroles",
                         "pace", "ruleset", "settings", "spectators",
                         "archivechats", "balance", "vote", "unvote", "early", "stats", "rules",
                         "roles", "role"})

HELP_PARTS: tuple[str, ...] = (guide.HELP_PLAYING, guide.HELP_HOSTING, guide.HELP_SETTINGS,
                               guide.HELP_POWERS)
LACK_TEXTS: dict[Lack, tuple[str, HowTo]] = {
    Lack.MUTE: (guide.LACKS_MUTE, HowTo.MUTE_RIGHTS),
    Lack.DELETE: (guide.LACKS_DELETE, HowTo.DELETE_RIGHTS),
    Lack.READ: (guide.LACKS_READ, HowTo.READ_RIGHTS),
}


@cache
def night_actions() -> frozenset[str]:
    """Every action id of every installed rule set (a night action in the group)."""
    return frozenset(a for r in available() for a in load_ruleset(r).action_ids())


def wrong_place_in_group(word: str) -> Reply | None:
    """The answer to a command the group does not take but a private chat does, if it is
    one (the same for everybody, see the module's doc)."""
    if word in PRIVATE_WORDS or word in night_actions():
        return Reply(guide.PRIVATE_ONLY, command=word)
    return None


def wrong_place_in_private(word: str) -> Reply | None:
    """The answer to a command the private chat does not take but the group does."""
    if word == "newgame":
        return Reply(guide.NEWGAME_IN_GROUP)
    if word in GROUP_WORDS:
        return Reply(guide.GROUP_ONLY, command=word)
    return None


def welcome(player_help: Part) -> PostPayload:
    """A private /start or /help from somebody in no game: what the bot is, how to host,
    then how to play."""
    return PostPayload((part(guide.WELCOME, how=howto(HowTo.HOST_SETUP)), player_help))


def help_part(number: int) -> PostPayload:
    """One part of the group's help (1 to 4)."""
    key = HELP_PARTS[number - 1]
    if key == guide.HELP_POWERS:
        return PostPayload((part(key, how=howto(HowTo.NAME_NEWCOMER)),))
    return PostPayload((part(key),))


def group_help(rest: str, buttons: bool) -> TextPayload:
    """/help in the group: the overview of its parts (with `buttons`, each part's button
    sends it privately), or /help N: that part."""
    wanted = rest.strip()
    if not wanted:
        overview = (part(guide.HELP_OVERVIEW),)
        if not buttons:
            return PostPayload(overview)
        return KeyboardPayload(overview, tuple(
            StoredButton(TextLabel(label), f"{HELP_PART}{n}", start=True)
            for n, label in enumerate(guide.HELP_PART_BUTTONS, start=1)))
    if wanted.isdigit() and 1 <= int(wanted) <= len(HELP_PARTS):
        return help_part(int(wanted))
    raise Reply(guide.HELP_NO_PART)


def pressed_help_part(token: str) -> int | None:
    """The part a help button asks for, if the token is one."""
    number = token.removeprefix(HELP_PART)
    if token.startswith(HELP_PART) and number.isdigit() and 1 <= int(number) <= len(HELP_PARTS):
        return int(number)
    return None


def greeting(lacks: tuple[Lack, ...]) -> PostPayload:
    """The bot added to a group: who it is, and what each right it misses costs."""
    lines = tuple(part(LACK_TEXTS[lack][0], how=howto(LACK_TEXTS[lack][1]))
                  for lack in Lack if lack in lacks)
    return PostPayload((part(guide.GREETING),
                        *(lines or (part(guide.GREETING_ALL_RIGHTS),))))
