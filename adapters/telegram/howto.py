"""How things are done on Telegram, in the bot's words (see core/service/ports/howto.py): a button
that opens the private chat with Start, an admin's right to ban users, an @username."""

from __future__ import annotations

from core.engine.messages import N_
from core.service import HowTo

HOWTO: dict[HowTo, str] = {
    HowTo.JOIN: N_("Join with the button below (it opens your private chat with me, where "
                   "your role will come) or with /join."),
    HowTo.OPEN_PRIVATE: N_("Press the button below and then Start; what is waiting for you "
                           "will follow."),
    HowTo.ACT_PRIVATELY: N_("Send me your night actions here: press a button, or write "
                            "/ACTION NAME (for example /check Bob), /ACTION NAME NAME for two "
                            "targets, /pass to do nothing."),
    HowTo.MUTE_RIGHTS: N_("For that I must be an admin there with the right to ban users."),
    HowTo.MUTE_NEVER: N_("Telegram lets no bot restrict a group's owner or its admins."),
    HowTo.VOTE_COUNT: N_("Votes by button and by /vote NAME count alike, and only each "
                         "player's last vote."),
    HowTo.READD: N_("Add me to the group again and write /resume there to go on, or /endgame "
                    "to end it."),
    HowTo.SEND_RIGHTS: N_("Give me back the right to send messages and write /resume there to "
                          "go on, or /endgame to end it."),
    HowTo.NAME_NEWCOMER: N_("Reply to a message of the newcomer with /replace NAME, or name "
                            "him by his @username once he has written to me."),
    HowTo.REJOIN: N_("To come back, join the group again with its invite link, or ask an "
                     "admin to add you."),
    HowTo.HOST_SETUP: N_("add me to your group (in the group's menu: Add members) and make me "
                         "an admin there with the rights to delete messages and to ban users."),
    HowTo.DELETE_RIGHTS: N_("For that I must be an admin there with the right to delete "
                            "messages."),
    HowTo.READ_RIGHTS: N_("Make me an admin there, or turn my privacy mode off with @BotFather "
                          "(/setprivacy, then Disable) and add me to the group again."),
}
