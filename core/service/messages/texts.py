"""What the service itself says (lobby, help, status, refusals of bad input). Every text is a
gettext message rendered in the reader's language at delivery.

How to do something on the platform (join, open the private chat, give the bot a right) is
never said here: a text names the topic in its `{how}` placeholder (`howto.howto`) and the
adapter in use says it in its own words (see ports/howto.py). The texts that only one platform's
news sets off (a Telegram forum topic, an anonymous Telegram admin; Matrix's encryption and
invitations, `ports.Situation`) speak that platform's words themselves."""

from __future__ import annotations

from core.engine.messages import N_, n_

HELP_PRIVATE = N_(
    "{how} Anything else you "
    "write here goes to your team chat, if you have one. /status tells you where the game "
    "is, what is open for you and what I told you last; /myrole repeats your role and all "
    "you have learned; /flee leaves the game (after a confirmation); /language de|ru|en sets "
    "your language.")
# The host in his private chat (a host who played and is out is muted in the group)
HELP_PRIVATE_HOST = N_(
    "You host a game: your host powers work here as in the group. /pause, /resume, "
    "/extend MINUTES, /force, /modkill NAME, /replace NAME NEWCOMER (named as /help in the "
    "group says), /announce TEXT (I post it in the group).")
HOST_POWERS_PRIVATE = N_(
    "You are out of the game, but you are still its host: write your host powers to me here "
    "(/pause, /resume, /extend, /force, /modkill, /replace, /announce). /help lists them.")
HOSTING_SEVERAL = N_("You host more than one game: use your host powers in the group of the "
                     "game you mean.")
RESUME_UNREACHABLE = N_("I still cannot write in {chat}, so the game stays paused. Write "
                        "/resume again once I can write there.")

SIGNUP_OPEN = N_("{host} opens a game of {ruleset}. {how} The host starts the game with "
                 "/startgame.")
JOINED_PRIVATE = N_("You are in! Your role will come here when the host starts the game.")
LEFT_PRIVATE = N_("You have left the sign-up.")
JOIN_BUTTON = N_("Join")
LEAVE_BUTTON = N_("Leave")
STARTED = N_("The game begins! Check your private messages for your role.")
CANCELLED = N_("{host} ended the game.")
LANGUAGE_SET = N_("From now on I speak English here.")
SETTING_CHANGED = N_("Setting changed: {setting}.")
PACE_CHANGED = N_("Setting changed: the pace is now {pace}, in the time zone {tz}.")
STATUS = N_("Game: {ruleset}. Phase: {phase}. Time left: {left}.")
STATUS_ALL_VOTED = N_("Everybody has voted.")
STATUS_PAUSED = N_("The game is paused.")
STATUS_LOBBY = N_("Sign-up for {ruleset} is open: {count} joined, {needed} needed.")
NO_GAME = N_("There is no game in this chat. Start one with /newgame.")
VOTE_PROMPT = N_("Time to vote: who gets your vote? Choose below, or write /vote NAME.")
VOTE_CLOSED = N_("The vote is closed.")
CHOICES_CLOSED = N_("This choice is closed.")
REMIND_VOTE = N_("Time is running out: {left} left, and your vote is missing.")
REMIND_CHOICE = N_("Time is running out: {left} left, and your choice is still open.")
TEAM_ROOM_CLOSED = N_("The game is over. This room stays yours; I am leaving it.")
WITHDRAW_BUTTON = N_("Withdraw my vote")
EARLY_BUTTON = N_("My vote is early")
ACTION_PROMPT = N_("Your choice: {action}.")
ACTION_ON = N_("{action}: {name}")
ACTION_ONLY = N_("{action}!")
TALLY = N_("Votes so far: {tally}.")
TALLY_FINAL = N_("Final count: {tally}.")
TALLY_OFFICIAL = N_("That is the game's official count. {how}")
TALLY_FINAL_EMPTY = N_("Nobody got a vote.")
TALLY_EMPTY = N_("No votes so far.")
PICK_FIRST = N_("Your choice: {action}. It needs two players: choose the first (or write "
                "/{command} NAME NAME).")
PICK_NEXT = N_("{action} with {name}: now choose the second player.")
PICK_NONE = N_("Nobody can be the second player with that choice.")
PICK_ROLE = N_("Your choice: {action}. Choose the role (or write /{command} ROLE).")
PASS_BUTTON = N_("Pass")
OPEN_PRIVATE_BUTTON = N_("Open my private chat")
OPEN_PRIVATE_CHAT = N_("{name}, I cannot write to you privately, and your role and night "
                       "actions are sent there. {how}")
SPECTATORS_SET = N_("The dead may watch the rest of the game in the spectators' chat.")
SPECTATORS_OFF = N_("There is no spectators' chat any more.")
SPECTATORS_INVITE = N_("You are out of the game. Watch the rest and talk with the other dead "
                       "here: {link}")
BAD_LINK = N_("Give a link that starts with https://, or “off”.")
PROMPT_TAKEN = N_("Your choice was noted.")

SORRY = N_("Sorry, something went wrong on my side with that: nothing has changed. Please "
           "try again; if it happens again, tell the host.")

# Refusals of bad input (they change nothing)
UNKNOWN_COMMAND = N_("I don't know the command /{command}. Try /help.")
ALREADY_RUNNING = N_("A game is already running in this chat.")
RULESET_CHANGED = N_("Setting changed: the next game is {ruleset}, with its own roles and "
                     "options.")
UNKNOWN_RULESET = N_("There is no rule set called {name}. Available: {names}.")
NOT_HOST = N_("Only the host can do that.")
IN_OTHER_GAME = N_("You are already playing in another game.")
ALREADY_JOINED = N_("You have already joined.")
NOT_JOINED = N_("You have not joined this game.")
NOT_IN_LOBBY = N_("Sign-up is closed: the game has already started.")
# /leave once the game runs: a player leaves a running game with /flee
LEAVE_RUNNING = N_("The game has already started: to leave it, write /flee.")
SIGNUP_OVER = N_("This sign-up belongs to a game that is over. To play, join the game open "
                 "in the group now, or ask to be told of the next one with /nextgame.")
NOT_STARTED = N_("The game has not started yet.")
TOO_FEW = N_("Not enough players yet: {count} joined, {needed} needed.")
NOBODY_CALLED = N_("Nobody in this game is called {name}.")
SEVERAL_CALLED = N_("“{name}” matches several players: {names}. Please write the full name.")
NAME_NEEDED = N_("Please name a player.")
NOT_PLAYING = N_("You are not playing in a game right now.")
NOT_A_PLAYER = N_("You are not playing in this game.")
STALE_BUTTON = N_("This button is from an earlier phase and no longer works.")
UNKNOWN_BUTTON = N_("This button is not valid.")
NOT_YOUR_BUTTON = N_("This button is not for you.")
FLEE_CONFIRM = N_("Do you really want to leave the game? You cannot come back, and the group "
                  "will be told that you left.")
FLEE_BUTTON = N_("Leave the game")
FLEE_DONE = N_("You have left the game. Thank you for playing!")
ENDGAME_CONFIRM = N_("Do you really want to end the game now? It cannot be resumed, and every "
                     "role will be revealed in the group.")
ENDGAME_CONFIRM_LOBBY = N_("Do you really want to close the sign-up? Everybody who joined will "
                           "be free again.")
ENDGAME_BUTTON = N_("End the game")
ENDGAME_DONE = N_("The game is ended.")
KEEP_BUTTON = N_("No, carry on")
KEPT = N_("All right: nothing has changed.")
UNKNOWN_LANGUAGE = N_("I speak {names}.")
UNKNOWN_ROLE = N_("There is no role called {name} in this game.")
DEADLINE_NOW = N_("Time left now: {left}.")
# a forum-pace window's close, told as it opens: "Day 2 lasts until Tuesday, 7:30 PM."
WINDOW_DUE = N_("{phase} lasts until {due}.")
NEED_MINUTES = N_("Write the number of minutes, for example /extend 10.")


# Lists, with their length for the sentence to agree with
SIGNUP_LIST = n_("Signed up so far: {names} ({count} player).",
                 "Signed up so far: {names} ({count} players).")
STATUS_WAITING = n_("{count} player has not voted yet: {names}.",
                    "{count} players have not voted yet: {names}.")
ROLES_IN_RULESET = n_("{ruleset} has {count} role: {roles}.",
                      "{ruleset} has {count} roles: {roles}.")
OPEN_FOR_YOU = N_("Still open for you: {actions}.")  # one or several, no count

# The bot and the group it plays in (sent privately to the host, with the group's title)
LOST_REMOVED = n_(
    "I was removed from {chat}, so your game there is paused. {how} If I am not back within "
    "{count} hour, I will cancel the game.",
    "I was removed from {chat}, so your game there is paused. {how} If I am not back within "
    "{count} hours, I will cancel the game.")
LOST_SILENCED = n_(
    "I may no longer write in {chat}, so your game there is paused. {how} If I still cannot "
    "write there in {count} hour, I will cancel the game.",
    "I may no longer write in {chat}, so your game there is paused. {how} If I still cannot "
    "write there in {count} hours, I will cancel the game.")
LOST_TOPIC_CLOSED = n_(
    "The topic of your game in {chat} was closed, so the game is paused. Reopen the topic "
    "and write /resume there to go on, or /endgame to end it. If it stays closed for {count} "
    "hour, I will cancel the game.",
    "The topic of your game in {chat} was closed, so the game is paused. Reopen the topic "
    "and write /resume there to go on, or /endgame to end it. If it stays closed for {count} "
    "hours, I will cancel the game.")
LOST_TOPIC_DELETED = n_(
    "The topic of your game in {chat} was deleted, so the game is paused and cannot go on "
    "there. Write /endgame to me here to end it; otherwise I will cancel it in {count} hour.",
    "The topic of your game in {chat} was deleted, so the game is paused and cannot go on "
    "there. Write /endgame to me here to end it; otherwise I will cancel it in {count} hours.")
BACK = N_("I can write in {chat} again.")
BACK_PAUSED = N_("I can write in {chat} again. Your game there is still paused: write "
                 "/resume in the group to go on.")
GAVE_UP = N_("The game in {chat} is cancelled: I could not write there for too long. You are "
             "free to join another game.")
CANNOT_MUTE = N_("I cannot mute the players who are out of the game in {chat}. {how} The "
                 "game goes on without muting.")
CANNOT_MUTE_PLAYER = N_("{name} is out of the game in {chat}, but I cannot mute him there. "
                        "{how} Please ask {name} to stay silent there until the game is over.")
CANNOT_MUTE_YOU = N_("You are out of the game in {chat}, but I cannot mute you there. {how} "
                     "Please stay silent there until the game is over.")
CANNOT_UNMUTE = N_("I could not let {name} speak again in {chat}. {how} I will do it as soon "
                   "as I can; or lift the restriction yourself.")
ANONYMOUS_HOST = N_("You are posting as the group, so I cannot seat you or write to you "
                    "privately. You can host the game from here; to play, write as yourself.")
ANONYMOUS_CANNOT_PLAY = N_("You are posting as the group (an anonymous admin): you may host, "
                           "but to play, write as yourself.")
ENDGAME_PRIVATE_NONE = N_("You are not hosting a game that waits for the group.")
RECAP = N_("Your role and what I told you last in this game:")
RECAP_NOTHING = N_("I have not told you anything in this game yet.")
OPTIONS_HEAD = N_("Options of {ruleset} (change one with /option NAME VALUE before the start):")
OPTION_LINE = N_("/option {name} — {title}: {value}. Possible: {about}")
ROLES_CURRENT = n_("The role to deal: {roles}. /setroles default goes back to the rules' "
                   "deal.", "The {count} roles to deal: {roles}. /setroles default goes back "
                   "to the rules' deal.")
ROLES_BY_DEFAULT = N_("The roles are dealt by the rules for the number of players. Choose "
                      "them with /setroles role, role, …")
STATUS_SETTINGS = N_("Changed from the defaults: {settings}.")
# /extend's bounds, said as two lengths (never "-420 to 10080"): shortened at most to now
EXTEND_RANGE = n_("The deadline can be extended by up to {high:n} minutes ({longest}) or "
                  "shortened by up to {count:n} minute, as much as is left.",
                  "The deadline can be extended by up to {high:n} minutes ({longest}) or "
                  "shortened by up to {count:n} minutes, as much as is left.")
EXTEND_ONLY = N_("The deadline can only be extended, by up to {high:n} minutes ({longest}).")
RECAP_SEAT = N_("You take over this seat. Here is everything it was told in this game:")
NEWCOMER_UNKNOWN = N_("I don't know who {name} is. {how}")
ALREADY_PLAYS = N_("{name} already plays in this game.")
ROLES_IN_PLAY = N_("The roles in this game:")
ROLE_LINE = N_("{role} ({side}): {card}")
ROLE_NEEDED = N_("Which role? For example /role {role}.")
ROLES_SECRET = N_("The roles in play are secret in this game.")
ROLES_REVEALED = N_("Who was who:")
PLAYER_WAS = N_("{name} was {role}.")
VOTE_OPEN_FOR_YOU = N_("Your vote is still missing.")
NOTHING_OPEN = N_("Nothing is open for you right now.")
NEXTGAME_NOTED = N_("I will tell you here when the next game opens in {chat}.")
NEXTGAME_OPEN = N_("A new game of {ruleset} opens in {chat}: join it there!")
# a pressed choice, said once on its keyboard: the action and its target, then (while the
# window is open) that it may change; the window's close keeps the choice and drops the rest
CHOICE_ACTION_ON = N_("Chosen: {action} on {name}.")
CHOICE_PAIR = N_("Chosen: {action} with {first} and {second}.")
CHOICE_ACTION = N_("Chosen: {action}.")
CHOICE_PASS = N_("Chosen: nothing this time.")
CHOICE_OPEN = N_("You can change it until the phase closes.")

# What a platform says about a person (see ports.Situation)
EDIT_IGNORED = N_("Edits do not count: I read a command only as it was first sent. Send it "
                  "again as a new message.")
EDIT_VOTE_WITHDRAWN = N_("You edited the message with your vote for {name}. A vote in an "
                         "edited message does not count, so your vote is withdrawn and the "
                         "edit counts for nothing either. To vote, send /vote again as a new "
                         "message or press a button on the ballot.")
EDIT_VOTE_STAYS = N_("You edited the message with your vote for {name}. Edits do not count, "
                     "and an early vote can be neither changed nor withdrawn: it stays as it "
                     "was.")
UNREADABLE_YOU = N_("I cannot read your encrypted messages: your client did not give my "
                    "device their keys (a bot's device cannot be verified). Write your "
                    "commands to me here, or let your client send keys to unverified "
                    "devices.")
UNREADABLE_PLAYER = N_("I cannot read {name}'s encrypted messages, so their commands do not "
                       "reach me. {name}, I have written to you privately why.")
ENCRYPTED_ROOM = N_("You opened an encrypted room with me, but I cannot read encrypted "
                    "rooms here, so I left it. Write to me in this room instead: your role "
                    "and night actions come here.")
INVITE_WAITING = N_("{name}, your private room with me is waiting: please accept my "
                    "invitation. Your role and night actions come there.")

# The game at a glance: the sign-up message shows the whole set-up, edited as it changes
GLANCE_ROLES = n_("The role to deal: {roles}.", "The {count} roles to deal: {roles}.")
GLANCE_DEAL = n_("Roles: the rules' deal for {count} player.",
                 "Roles: the rules' deal for {count} players.")
GLANCE_PACE = N_("Pace: {pace}, time zone {tz}.")
GLANCE_ONCE = N_("For this game only (the group keeps its own): {settings}.")
# What a group (or a forum topic) remembers for its next games: /settings, /status
GROUP_SETTINGS = N_("This group's settings, which its next games start with: language "
                    "{language}, pace {pace}, time zone {tz}. /settings reset forgets them.")
GROUP_OPTIONS = N_("For {ruleset}: {settings}.")
GROUP_ROLES = n_("For {ruleset} the role to deal: {roles}.",
                 "For {ruleset} the {count} roles to deal: {roles}.")
GROUP_SETTINGS_NONE = N_("This group keeps no settings of its own: its next game starts with "
                         "the defaults.")
GROUP_SETTINGS_FORGOTTEN = N_("This group's settings are forgotten: its next game starts with "
                              "the defaults. A game in sign-up keeps what it has.")
BAD_SETTINGS = N_("/settings shows this group's settings, /settings reset forgets them.")

# The host's timers (/timer, core/service/commands/timers.py), in the plain voice of settings
TIMERS_HEAD = N_("Timers at the {pace} pace (the host sets them with /timer WINDOW TIME):")
TIMER_LINE = N_("{window}: {duration}")
TIMER_LINE_CLOCK = N_("{window}: until {time} ({tz})")
TIMER_LINE_CLOCK_LEAST = N_("{window}: until {time} ({tz}), at least {duration}")
TIMER_SET = N_("Timer set. {window}: {duration}.")
TIMER_SET_CLOCK = N_("Timer set. {window}: until {time} ({tz}).")
TIMER_UNKNOWN_WINDOW = N_("This game has no window called “{name}”. Its windows: {windows}.")
TIMER_BAD = N_("Write /timer WINDOW TIME: a duration like /timer vote 10m or 2m30s, or at "
               "the forum pace a clock time like /timer vote 21:00.")
TIMER_OUT_OF_RANGE = N_("{window}: a timer must lie between {shortest} and {longest}.")
TIMER_CLOCK_NEEDS_FORUM = N_("A clock time belongs to the forum pace (/pace forum); at the "
                             "quick pace give a duration, like 10m.")
TIMER_WINDOW_OPEN = N_("{window} is open right now: its timer can no longer change "
                       "(/extend MINUTES gives it more time).")

# leaving the game's group chat (commands/departures.py)
LEFT_CHAT_GRACE = n_(
    "You have left the game's group. If you are not back within {count} minute, you leave "
    "the game. {how}",
    "You have left the game's group. If you are not back within {count} minutes, you leave "
    "the game. {how}")
BACK_IN_TIME = N_("Welcome back! You are still in the game.")
