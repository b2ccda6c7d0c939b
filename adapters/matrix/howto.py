"""How things are done on Matrix, in the bot's words (see core/service/ports/howto.py): a keycap
reaction picks an option, the private room comes as an invitation to accept, rights are power
levels, a person is named by his Matrix ID. Commands are written with "/" and shown with the
adapter's "!" (`command_prefix`)."""

from __future__ import annotations

from core.engine.messages import N_
from core.service import HowTo

HOWTO: dict[HowTo, str] = {
    HowTo.JOIN: N_("Join with /join or by reacting to this message with 1️⃣: I will invite you "
                   "to a private room with me, where your role will come. Please accept the "
                   "invitation."),
    HowTo.OPEN_PRIVATE: N_("React to this message with 1️⃣ and I will invite you to a private "
                           "room with me again; accept the invitation, and what is waiting for "
                           "you will follow there."),
    HowTo.ACT_PRIVATELY: N_("Send me your night actions here: answer my question with the "
                            "number of your choice (or react to it with that number, such as "
                            "2️⃣), or write /ACTION NAME (for example /check Bob), /ACTION NAME "
                            "NAME for two targets, /pass to do nothing."),
    HowTo.MUTE_RIGHTS: N_("For that my power level there must let me change the room's power "
                          "levels (100 in a room with the usual settings) and be higher than "
                          "the players'; in Element: Room settings → Roles & Permissions."),
    HowTo.MUTE_NEVER: N_("From room version 12 on, a room's creators have unlimited power: "
                         "no power level, however high, can lower theirs. Until the game is "
                         "over I mark what a creator who is out of it writes there with 👻: it "
                         "does not count."),
    HowTo.VOTE_COUNT: N_("Votes written as /vote NAME count too, and only each player's "
                         "last vote; the poll's own figures show poll answers alone."),
    HowTo.READD: N_("Invite me to the room again and write /resume there to go on, or "
                    "/endgame to end it."),
    HowTo.SEND_RIGHTS: N_("Raise my power level there so that I may send messages again, and "
                          "write /resume in the room to go on, or /endgame to end it."),
    HowTo.NAME_NEWCOMER: N_("Name the newcomer by his Matrix ID, for example /replace NAME "
                            "@kim:example.org."),
    HowTo.REJOIN: N_("To come back, join the room again; if it is invite-only, ask someone "
                     "in it to invite you."),
    # what protocol/power.py's `lacking` checks in the greeting: the power to change the
    # room's power levels, above the players' (to mute); the bot redacts nobody's events
    HowTo.HOST_SETUP: N_("invite me to your room (I accept invitations from the people my "
                         "operator allows) and give me a power level that may change the "
                         "room's power levels and is above the players', usually 100: with "
                         "it I mute those who are out of the game."),
    # a Matrix message is never split, and a sender may always redact his own events
    HowTo.DELETE_RIGHTS: N_("On Matrix I may always delete my own messages: there is nothing "
                            "to change."),
    HowTo.READ_RIGHTS: N_("On Matrix I read everything in the rooms I am in: there is nothing "
                          "to change."),
}
