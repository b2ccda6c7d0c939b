"""What a platform answers to an order nobody may carry out there (beside contract.py's
errors, which cover what is or may become possible), and to a typed vote it took."""

from __future__ import annotations

from .contract import Notice, PermanentError


class Untouchable(PermanentError):
    """Nobody may mute this person in this chat, whatever the bot's rights (a Matrix room's
    creator from room version 12 on, a Telegram group's owner or admin): the order is
    dropped, the host told by name why (the adapter's `HowTo.MUTE_NEVER`)."""


#: the service's answer to a typed vote the game took (`Notice` is otherwise a pressed
#: button's): no text, the tally shows it; a platform may mark the message as counted,
#: where its poll would not show it (Matrix reacts ✅)
VOTE_COUNTED = Notice("", taken=True)

#: the service's answer to a private keyboard's pressed choice while its window is open: no
#: text, the keyboard itself is edited to say what is chosen (one confirmation, not two)
SHOWN_ON_KEYBOARD = Notice("", taken=True)
