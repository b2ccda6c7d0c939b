"""What the host is told about a setting he types (core/service/commands/option_values.py,
sign_up_fit.py): each refusal names what is allowed, in his language; a setting that does
not fit the sign-up says by how many players."""

from __future__ import annotations

from core.engine.messages import N_, n_

# an option with its value, inside another sentence ("Setting changed: {setting}.")
SETTING = N_("{option}: {value}")
UNKNOWN_OPTION = N_("{ruleset} has no option {name}. Its options: {options}.")
OPTION_TAKES = N_("{title} takes one of: {values}.")
OPTION_NUMBER = N_("{title} takes a whole number: {about}")
OPTION_PLAYER = N_("{title} takes the name of a player who has signed up ({signed}); write "
                   "/option {name} alone to have it drawn.")
OPTION_FITS_NO_GAME = N_("{title}: {value} fits no game of {least} to {most} players. "
                         "Possible: {values}.")
# the sign-up's warning, edited in and out as players come and go
OPTION_NEEDS_PLAYERS = N_("⚠ {title}: {value} needs at least {needed} players; signed up: "
                          "{count}. The game cannot start like this.")
OPTION_PLAYER_GONE = N_("⚠ {title}: {name} is no longer signed up. The game cannot start "
                        "like this.")
START_OPTION_NEEDS_PLAYERS = N_("The game cannot start yet: {title}: {value} needs at least "
                                "{needed} players, and {count} have signed up. Wait for more, "
                                "or change it with /option {name} VALUE.")
START_ROLES_COUNT = n_("The game cannot start: the role list has {count} role, but {players} "
                       "have signed up (one role per player). Change it with /setroles, or "
                       "write /setroles default for the rules' deal.",
                       "The game cannot start: the role list has {count} roles, but {players} "
                       "have signed up (one role per player). Change it with /setroles, or "
                       "write /setroles default for the rules' deal.")
START_PLAYER_GONE = N_("The game cannot start: {title} names {name}, who is no longer signed "
                       "up. Name another player with /option {option} NAME, or write "
                       "/option {option} alone to have it drawn.")
BAD_PACE = N_("Possible paces: {paces}, each optionally followed by a time zone like "
              "Europe/Berlin.")
DRAWN = N_("drawn at random")
TIMER_PRIVATE_NONE = N_("You host no game: /timer here sets the timers of the game you host.")
UNKNOWN_ROLE = n_("There is no role called {name} in this game. Its role: {roles}.",
                  "There is no role called {name} in this game. Its {count} roles: {roles}.")
