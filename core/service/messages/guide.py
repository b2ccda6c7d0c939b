"""What the bot says to somebody who meets it for the first time or looks for his way: the
welcome of a private /start, the group's /help in numbered parts, the greeting when it is added
to a group (with what each missing right costs), and the answer to a command sent in the wrong
chat. Every text is a gettext message; how something is done on the platform is the adapter's
`{how}` (ports/howto.py)."""

from __future__ import annotations

from core.engine.messages import N_

# A private /start or /help from somebody in no game: what the bot is and how to host
WELCOME = N_(
    "Hello! I am Nightfall, a game master for social-deduction games in your group: I deal "
    "the roles, send each player his night actions privately, run the day's vote and tell the "
    "story. To host a game: {how} Then write /newgame in the group; the players join with the "
    "button under the sign-up, and you start with /startgame. /help in the group explains the "
    "rest.")

# The group's /help: an overview, then each part on its own (/help 1 … /help 4)
HELP_OVERVIEW = N_(
    "Commands in the group, in four parts (write /help and the number for one of them): "
    "1 playing, 2 hosting a game, 3 the host's settings, 4 the host's powers during the game.")
HELP_PLAYING = N_(
    "1 — Playing: join a game's sign-up with its button or /join, leave it with /leave. Your "
    "role and your night actions come to you privately. By day: /vote NAME, /unvote, /early "
    "(your vote is final and the day may end sooner). /status shows where the game is; "
    "/rules, /roles and /role NAME explain the rules; /flee leaves a running game; /nextgame "
    "tells you when the next game opens; /stats shows your finished games (/stats group: "
    "this chat's); /language de|ru|en sets the group's language.")
HELP_HOSTING = N_(
    "2 — Hosting: /newgame [ruleset] opens a sign-up here and makes you its host. Once enough "
    "players have joined, /startgame deals the roles; /endgame ends the game (or closes the "
    "sign-up). My answers to your commands come to you privately: open your private chat with "
    "me first.")
HELP_SETTINGS = N_(
    "3 — Settings, before the start: /option (alone: every option, its value and what it "
    "does), /option NAME VALUE, /setroles (alone: the list) role, role, … or /setroles "
    "default, /pace quick|forum [time zone], /timer WINDOW TIME (how long a window lasts; "
    "also during the game, for a window not open yet), /ruleset NAME (each kept for this "
    "group's next games; add --once for this game only), /config (all settings as a menu in "
    "your private chat), /settings (what this group keeps) and /settings reset, /spectators "
    "LINK|off, /archivechats on|off (the team chats on the game's archive page); /balance "
    "[players] [new|regular|sharp]: how even the sides' chances are, and role lists closer to "
    "even.")
HELP_POWERS = N_(
    "4 — Host powers during the game: /pause, /resume, /extend MINUTES, /force, /modkill "
    "NAME, /replace NAME NEWCOMER, /announce TEXT. {how}")
HELP_PART_BUTTONS = (N_("1 Playing"), N_("2 Hosting"), N_("3 Settings"), N_("4 Host powers"))
HELP_NO_PART = N_("/help has four parts: write /help 1, 2, 3 or 4.")

# Added to a group: a greeting, then one line per right the bot lacks, with its cost
GREETING = N_(
    "Hello, I am Nightfall, your game master. Write /newgame to open a game here and /help "
    "to see how it goes.")
GREETING_ALL_RIGHTS = N_("I have every right I need here.")
LACKS_MUTE = N_("I cannot mute the players who are out of the game: they would have to keep "
                "silent on their honour. {how}")
LACKS_DELETE = N_("I cannot delete my own messages: when a long message of mine gets "
                  "shorter, its old pieces stay. {how}")
LACKS_READ = N_("I see only the commands written here, not the talk: a player who only talks "
                "counts as inactive. {how}")

# A command sent in the wrong chat: where it works
PRIVATE_ONLY = N_("/{command} works only in your private chat with me: send it to me there, "
                  "not in the group.")
GROUP_ONLY = N_("/{command} works in the game's group: write it there.")
NEWGAME_IN_GROUP = N_("Games are opened in a group: add me to your group and write /newgame "
                      "there.")
# The fallback: an answer meant for a private chat that is closed to the bot
ANSWER_IN_GROUP = N_("{name}, I cannot write to you privately yet, so here is my answer. {how}")
HOST_OPEN_PRIVATE = N_("{name}, you host this game: my answers to your commands and the "
                       "settings come to you privately, and I cannot write to you there yet. "
                       "{how}")
