"""What the host's settings menu says (core/service/commands/settings_menu.py): its pages'
heads and its buttons. Every text is a gettext message rendered in the host's language."""

from __future__ import annotations

from core.engine.messages import N_

MENU_HEAD = N_("Settings of the next game in {chat}: {ruleset}, pace {pace}, time zone {tz}, "
               "language of the group {language}. Choose what to change; each change is "
               "checked as its command would be, and the group is told.")
MENU_SAVED = N_("✓ Saved.")
MENU_CLOSED = N_("The settings menu is closed. /config in the group opens it again.")
MENU_PICK_RULESET = N_("Which game? A new rule set starts with its own roles and options.")
MENU_PICK_LANGUAGE = N_("The language the bot speaks in the group:")
MENU_PICK_PACE = N_("The pace: quick (minutes, for a game in one sitting) or forum (a day "
                    "and a night a day, at clock times in the time zone {tz}).")
MENU_PICK_ZONE = N_("The time zone of the forum pace's clock times (now {tz}); any other "
                    "zone with /pace forum ZONE in the group.")
MENU_PICK_OPTION = N_("Choose the option to change:")
MENU_PICK_VALUE = N_("{title}: now {value}. {about}")
MENU_PICK_TIMER = N_("Choose the window whose timer to change:")
MENU_PICK_DURATION = N_("How long? Any other length with /timer {window_id} TIME, here or in "
                        "the group.")
MENU_PICK_CLOCK = N_("Until which time ({tz})? Any other time, or a length, with "
                     "/timer {window_id} TIME, here or in the group.")
MENU_PICK_PLAYER = N_("{title}: now {value}. Choose a player who has signed up, or have it "
                      "drawn.")
# whether the menu's changes are the group's from now on or this game's alone (`--once`)
MENU_SCOPE_GROUP = N_("Each change is kept for this group's next games.")
MENU_SCOPE_ONCE = N_("Each change is for this game only: the group's next games start with "
                     "the group's own settings.")
MENU_NO_GAME = N_("You host no game in sign-up. Send /config in the group whose game you "
                  "host or administer.")
MENU_ONLY_LOBBY = N_("The settings can be changed only before the game starts.")

BUTTON_RULESET = N_("Rule set")
BUTTON_LANGUAGE = N_("Language")
BUTTON_PACE = N_("Pace")
BUTTON_ZONE = N_("Time zone")
BUTTON_ROLES = N_("Roles")
BUTTON_OPTIONS = N_("Options")
BUTTON_TIMERS = N_("Timers")
BUTTON_CLOSE = N_("Close")
BUTTON_BACK = N_("« Back")
BUTTON_ADD_ROLE = N_("+ {role}")
BUTTON_REMOVE_ROLE = N_("− {role}")
BUTTON_DEFAULT_DEAL = N_("Default deal")
BUTTON_OPTION = N_("{title}: {value}")
BUTTON_SCOPE_GROUP = N_("For this group from now on")
BUTTON_SCOPE_GROUP_CHOSEN = N_("✓ For this group from now on")
BUTTON_SCOPE_ONCE = N_("This game only")
BUTTON_SCOPE_ONCE_CHOSEN = N_("✓ This game only")
