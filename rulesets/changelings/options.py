"""The host's options for the pony game: the values each may take and what it does (shown by
`/option` alone, in the chat's language)."""

from __future__ import annotations

from core.engine.messages import N_, NC_

CHOICES = {"fanatic_uses": ("night", "game")}
VALUES = {"night": N_("once a night"), "game": N_("once a game")}  # as the group reads them
ABOUT = {
    "random_lovers": N_("on or off: without a love poison in the game, two random players "
                        "fall in love in the first night."),
    "inactivity_hours": N_("hours (0 = off): a player silent this long is inactive from the "
                           "next night and no longer counts."),
    "fanatic_uses": N_("night or game: the fanatic may strike once each night, or once a "
                       "game."),
    "changelings": N_("a number (0 = by the player count): how many changelings are dealt."),
    "early_close": N_("on or off: a night phase ends as soon as everyone with a task has "
                      "acted."),
}
# An option's name in running text ("Setting changed: random lovers: off")
NAMES = {
    "random_lovers": N_("random lovers"),
    "inactivity_hours": N_("hours until inactive"),
    "fanatic_uses": N_("the fanatic's strikes"),
    "changelings": N_("number of changelings"),
    "early_close": N_("early end of the night"),
}
# Short words a host may type for an option's name (`/option wechselbälger 3`), beside its id
# and its shown name; each translation is a comma-separated list
WORDS = {
    "random_lovers": NC_("typed", "lovers"),
    "inactivity_hours": NC_("typed", "inactivity, inactive"),
    "fanatic_uses": NC_("typed", "fanatic, strikes"),
    "changelings": NC_("typed", "changelings"),
    "early_close": NC_("typed", "early end, early close"),
}
