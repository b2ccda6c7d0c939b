"""The homunculus game's voice for the core's prompts (core/engine/voice.py): what a
player reads every night and day, dark and grave, three ways each; and `OWN`, the rule set's
own texts told every night, varied the same way (`said`)."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import ActionId
from core.engine.messages import N_
from core.engine.voice import Voiced, for_action, pick

VOICE: dict[str, tuple[str, ...]] = {
    "ACTION_PROMPT": (
        N_("Your work awaits: {action}. Choose below, or let it rest."),
        N_("The circle is drawn. Open to you: {action}."),
        N_("Every act has its price. Yours to choose: {action}."),
    ),
    "PICK_FIRST": (
        N_("{action} takes two. Name the first (or write /{command} NAME NAME)."),
        N_("Two names for one transmutation: {action}. The first? (Or write /{command} "
           "NAME NAME.)"),
        N_("{action}: two names go into the circle. Chalk in the first (or write /{command} "
           "NAME NAME)."),
    ),
    "PICK_NEXT": (
        N_("{action}: the first name is {name}. Now the second."),
        N_("{name} stands in the circle. {action} needs one more: choose."),
        N_("{action}. {name} is chalked into the circle. Name the other."),
    ),
    "PICK_ROLE": (
        N_("{action}: name the role you seek (or write /{command} ROLE)."),
        N_("{action}. Everyone in this city hides a craft. Which one? (Or write /{command} "
           "ROLE.)"),
        N_("{action}: choose the role, and choose carefully (or write /{command} ROLE)."),
    ),
    "CHOICE_ACTION_ON": (
        N_("So be it: {action} on {name}."),
        N_("Recorded: {action} on {name}."),
        N_("Your choice stands: {action} on {name}."),
    ),
    "CHOICE_ACTION": (
        N_("So be it: {action}."),
        N_("Recorded: {action}."),
        N_("Your choice stands: {action}."),
    ),
    "CHOICE_PAIR": (
        N_("So be it: {action} with {first} and {second}."),
        N_("Recorded: {action} with {first} and {second}."),
        N_("Your choice stands: {action} with {first} and {second}."),
    ),
    "CHOICE_PASS": (
        N_("So be it: you stay your hand."),
        N_("Recorded: nothing. Idle hands are seen too."),
        N_("You do nothing. That, too, is a choice."),
    ),
    "CHOICE_OPEN": (
        N_("Until the phase closes, you may still turn back."),
        N_("The ink dries when the phase closes."),
        N_("It can still be changed until the phase closes."),
    ),
    "NOTED": (
        N_("So be it. Until the phase closes, you may still turn back."),
        N_("Recorded. The ink dries when the phase closes."),
        N_("Your order is received. It can still be changed until the phase closes."),
    ),
    "VOTE_PROMPT": (
        N_("The city demands a name. Vote below, or write /vote NAME."),
        N_("Judgement is yours. Who gets your vote? Choose below, or write /vote NAME."),
        N_("Every vote has its price, and so does every silence. Choose below, or write "
           "/vote NAME."),
    ),
    "REMIND_VOTE": (
        N_("{left} left. Your vote is still missing, and the city takes note."),
        N_("The clock runs down: {left}. You have not voted."),
        N_("A missing vote has its price. {left} left to cast yours."),
    ),
    "REMIND_CHOICE": (
        N_("{left} left. Your choice is still open."),
        N_("The clock runs down: {left}. The hour will not wait for you."),
        N_("An unfinished circle is worth nothing. {left} left to choose."),
    ),
    "PROMPT_TAKEN": (
        N_("Noted. The ink is still wet."),
        N_("So be it."),
        N_("Your word is taken."),
    ),
    "CHOICES_CLOSED": (
        N_("The circle is closed. Nothing can be changed now."),
        N_("Time is up. What is done is done."),
        N_("The ink has dried. This choice is sealed."),
    ),
    "VOTE_CLOSED": (
        N_("The vote is closed. The city has spoken."),
        N_("No more votes. Now the count speaks."),
        N_("The ballot box is sealed. Now the votes are counted."),
    ),
}

# Copy (envy's, and the Stone's) takes a source and a target: its prompts say which is which.
_COPY: dict[Voiced, tuple[str, ...]] = {
    Voiced.PICK_FIRST: (
        N_("{action}: whose craft do you take? The source first, the target next (or write "
           "/{command} SOURCE TARGET)."),
        N_("{action}. First the one whose craft you steal, then the one you turn it on. "
           "Whose craft? (Or write /{command} SOURCE TARGET.)"),
        N_("{action}: chalk in the source, the one whose ability you copy; the target follows "
           "(or write /{command} SOURCE TARGET)."),
    ),
    Voiced.PICK_NEXT: (
        N_("{action}: you take {name}'s craft. Now the target: on whom do you use it?"),
        N_("{name}'s craft is in your hands. {action} needs its target: on whom?"),
        N_("{action}. Source: {name}. Now name the target."),
    ),
    Voiced.CHOICE_PAIR: (
        N_("So be it: {action}. {first}'s craft, used on {second}."),
        N_("Recorded: {action}. Source: {first}; target: {second}."),
        N_("Your choice stands: {action}. The craft of {first}, turned on {second}."),
    ),
}
VOICE.update({for_action(prompt, action): variants for prompt, variants in _COPY.items()
              for action in (ActionId("copy"), ActionId("stone_copy"))})

#: the rule set's own texts that a player reads night after night, three ways each
OWN: dict[str, tuple[str, ...]] = {
    "REQUEST": (  # to Father, for each kill request
        N_("{name} asks for {target}'s death."),
        N_("A kill request from {name}: {target}."),
        N_("{name} wants {target} dead. The decision is yours."),
    ),
    "CHECK": (  # to whoever checks, the result
        N_("Your check: {name} is {result}."),
        N_("The truth about {name}: {result}."),
        N_("What you learned tonight: {name} is {result}."),
    ),
}


def said(game: Game, name: str, reader: str) -> str:
    """The variant of an `OWN` text this reader is told tonight: another one the next night,
    and the same on every replay (a stable hash, never the game's random generator)."""
    phase = game.state.phase
    return pick(OWN, name, OWN[name][0], phase.number, reader, phase.kind)
