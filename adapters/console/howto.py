"""How things are done in the console, in the bot's words (see core/service/ports/howto.py): a
line `Ann: …` is written in the group, `Ann> …` privately, `[Label]` presses a button. The
console never loses its group nor a private chat, and mutes nobody: those texts are there
so that every platform can say every how-to."""

from __future__ import annotations

from core.engine.messages import N_
from core.service import HowTo

HOWTO: dict[HowTo, str] = {
    HowTo.JOIN: N_("Join with /join or with [Join] (a line “Name: [Join]”); your role will "
                   "come to you privately."),
    HowTo.OPEN_PRIVATE: N_("Write to me privately (a line “Name> /start”), and what is waiting "
                           "for you will follow."),
    HowTo.ACT_PRIVATELY: N_("Send me your night actions privately (lines “Name> …”): press a "
                            "button (“Name> [Label]”), or write /ACTION NAME (for example "
                            "/check Bob), /ACTION NAME NAME for two targets, /pass to do "
                            "nothing."),
    HowTo.MUTE_RIGHTS: N_("The console cannot mute anybody."),
    HowTo.MUTE_NEVER: N_("The console cannot mute anybody."),
    HowTo.VOTE_COUNT: N_("Votes by button and by /vote NAME count alike, and only each "
                         "player's last vote."),
    HowTo.READD: N_("Open the group in the console again and write /resume there to go on, or "
                    "/endgame to end it."),
    HowTo.SEND_RIGHTS: N_("Let me write in the group again and write /resume there to go on, "
                          "or /endgame to end it."),
    HowTo.NAME_NEWCOMER: N_("Name the newcomer as he is called in the console (the name before "
                            "“:” or “>”), once he has written to me."),
    HowTo.REJOIN: N_("To come back, write in the group again (a line “Name: …”)."),
    HowTo.HOST_SETUP: N_("write in the group (a line “Name: …”)."),
    HowTo.DELETE_RIGHTS: N_("The console deletes nothing."),
    HowTo.READ_RIGHTS: N_("The console shows me everything written in the group."),
}
