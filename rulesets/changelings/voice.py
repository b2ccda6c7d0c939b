"""The pony game's voice for the core's prompts (core/engine/voice.py): what a player
reads every night and day, playful and warm, three ways each."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.messages import N_, n_
from core.engine.voice import Prompt

VOICE: dict[str, tuple[str, ...]] = {
    "ACTION_PROMPT": (
        N_("Your turn! What you can do: {action}. Pick below, and no peeking!"),
        N_("Hooves ready? Up for grabs: {action}. Or just press Pass."),
        N_("Psst, just between you and me: {action}. Choose below, or pass."),
    ),
    "PICK_FIRST": (
        N_("{action} takes two ponies! Pick the first one (or write /{command} NAME NAME)."),
        N_("Two hearts and a little magic: {action}. Who comes first? (Or write /{command} "
           "NAME NAME.)"),
        N_("{action}: one pony, then another! Start with the first (or write /{command} "
           "NAME NAME)."),
    ),
    "PICK_NEXT": (
        N_("{action}: {name} is in! And who is the second pony?"),
        N_("{action}, part one: {name}. Part two: pick the second pony below."),
        N_("{name} it is! {action} still needs a second pony: who will it be?"),
    ),
    "PICK_ROLE": (
        N_("{action}: which role will it be? Pick it below (or write /{command} ROLE)."),
        N_("{action}: a role, please, fresh from Rarity's costume box! (Or write "
           "/{command} ROLE.)"),
        N_("{action}: who will you be today? Choose a role (or write /{command} ROLE)."),
    ),
    "CHOICE_ACTION_ON": (
        N_("Got it: {action}, and the target is {name}!"),
        N_("Noted with a sparkle: {action}, target {name}!"),
        N_("Your pick: {action}, aimed at {name}. Pinkie promise, it stays secret!"),
    ),
    "CHOICE_ACTION": (
        N_("Got it: {action}!"),
        N_("Noted with a sparkle: {action}!"),
        N_("Your pick: {action}. Pinkie promise, it stays secret!"),
    ),
    "CHOICE_PAIR": (
        N_("Got it: {action} with {first} and {second}!"),
        N_("Noted with a sparkle: {action} with {first} and {second}!"),
        N_("Your pick: {action} with {first} and {second}. Pinkie promise, it stays secret!"),
    ),
    "CHOICE_PASS": (
        N_("A quiet one for you, then: you pass."),
        N_("You pass: hooves up and a cup of cocoa."),
        N_("Nothing this time? Fine by me, your secret is safe."),
    ),
    "CHOICE_OPEN": (
        N_("Changed your mind? Press again before the phase ends."),
        N_("You can still change it until the phase closes."),
        N_("Change it any time before the phase ends."),
    ),
    "NOTED": (
        N_("Noted, and tucked safely under my pillow! You can change it until the phase "
           "closes."),
        N_("Got it! Change your mind any time before the phase closes."),
        N_("Written down in my friendship journal. You can still change it until the phase "
           "closes."),
    ),
    "VOTE_PROMPT": (
        N_("To the town square, everypony! Who gets your vote? Press a name below, or "
           "write /vote NAME."),
        N_("Hooves up for the vote! Choose below, or write /vote NAME."),
        N_("Decision time, Ponyville! Who gets your vote? Choose below, or write /vote "
           "NAME."),
    ),
    "REMIND_VOTE": (
        N_("Psst! Only {left} left, and your vote is still missing. The town square is "
           "waiting!"),
        N_("Tick-tock, little pony: {left} to go, and you have not voted yet!"),
        N_("Don't leave Ponyville hanging! {left} left for your vote."),
    ),
    "REMIND_CHOICE": (
        N_("Psst! Only {left} left, and your choice is still open. Sleepyheads miss their "
           "turn!"),
        N_("Tick-tock, little pony: {left} to go, and you have not chosen yet!"),
        N_("Still thinking? Take your time, but not too much: {left} left."),
    ),
}

# The pony game's own prompts and night news, read by the same players night after night:
# three ways each, picked like the core's prompts (`said`); the first is the plain one.
OWN: dict[str, tuple[str, ...]] = {
    "CHECK_RESULT": (
        N_("Your check: {name} is {role}."),
        N_("You peek through your magnifying glass… {name} is {role}!"),
        N_("Research complete, notes scribbled: {name} is {role}."),
    ),
    "PINKIE_TINGLES": (
        N_("Your Pinkie Sense tingles: {name} will be abducted tonight."),
        N_("Twitchy tail, fluttery ears: the changelings are after {name} tonight!"),
        N_("Doozy alert! Your Pinkie Sense says {name} will be abducted tonight."),
    ),
    # the Pinkie Sense is the one to be abducted: told in the second person
    "PINKIE_SELF": (
        N_("Your Pinkie Sense goes wild: tonight the changelings are coming for you!"),
        N_("Twitchy tail, fluttery ears, and this time they point at you: the changelings are "
           "after you tonight!"),
        N_("Doozy alert! Your Pinkie Sense says you will be abducted tonight."),
    ),
    "PINKIE_QUIET": (
        N_("Your Pinkie Sense is quiet tonight."),
        N_("Not a twitch, not a flutter: your Pinkie Sense is quiet tonight."),
        N_("Your tail stays still and your ears stay calm: nothing to sense tonight."),
    ),
    "WANTS_ABDUCT": (
        N_("{name} wants to abduct {target}."),
        N_("Buzz from the hive: {name} has {target} in sight for tonight."),
        N_("{name} votes to carry {target} off to the hive."),
    ),
    "WANTS_EXCHANGE": (
        N_("{name} wants to exchange {target}."),
        N_("Buzz from the hive: {name} would like to make {target} one of you."),
        N_("{name} votes to exchange {target} tonight."),
    ),
    "SUCCESSOR": (
        N_("Name the next mayor."),
        N_("Before you go: who gets the mayor's sash? Name the next mayor."),
        N_("Ponyville needs a new mayor, and you may choose. Who will it be?"),
    ),
    "NEW_MAYOR": (
        N_("{name} is the new mayor."),
        N_("Hooray for {name}, the new mayor of Ponyville!"),
        N_("The mayor's sash now belongs to {name}. Congratulations!"),
    ),
    "NO_AGREEMENT": (
        N_("You did not agree on one target, so nothing happens tonight."),
        N_("The hive buzzed in too many directions: no single target, so nothing happens "
           "tonight."),
        N_("One hive, one target, remember? You picked different ponies, so tonight nopony "
           "is taken."),
    ),
    "CHASE": (
        N_("Name a player who runs away with you."),
        N_("If you go, you won't go alone! Name a player who runs away with you."),
        N_("Time for your grand exit: who runs away with you?"),
    ),
}


# The own texts that list the tied players (CH-MAYOR): told with their count, so that each
# language's sentence can agree with it (n_ pairs; picked like the others).
COUNTED: dict[str, tuple[tuple[str, str], ...]] = {
    "TIE_PICK": (
        n_("The vote is tied between {count} pony: {names}. As mayor, pick who is banished.",
           "The vote is tied between {count:w} ponies: {names}. As mayor, pick who is "
           "banished."),
        n_("A tie! Equal votes for {count} pony: {names}. The mayor's sash gives you the "
           "last word: who is banished?",
           "A tie! Equal votes for {count:w} ponies: {names}. The mayor's sash gives you the "
           "last word: who is banished?"),
        n_("Hoof to hoof, the votes are even for {count} pony: {names}. Mayor, it is up to "
           "you: who must leave?",
           "Hoof to hoof, the votes are even for {count:w} ponies: {names}. Mayor, it is up to "
           "you: who must leave?"),
    ),
    "TIE_GROUP": (
        n_("The vote is tied between {count} pony: {names}. The mayor decides.",
           "The vote is tied between {count:w} ponies: {names}. The mayor decides."),
        n_("Neck and neck: {names}! Now the mayor has the last word.",
           "Neck and neck: {names}! Now the mayor has the last word."),
        n_("A tie in the town square: {names}! All eyes on the mayor: who has to go?",
           "A tie in the town square: {names}! All eyes on the mayor: who has to go?"),
    ),
}


#: each of `OWN` as told to players (`Prompt`: its variants and each reader's start, kept)
TOLD = {name: Prompt(OWN, name, variants[0]) for name, variants in OWN.items()}


def said(game: Game, name: str, pid: str) -> str:
    """The variant of one of the game's own prompts a player reads in this phase."""
    return TOLD[name].told(game.state.phase, pid)


#: each of `COUNTED`'s n_ pairs by its singular, and the singulars as told (`Prompt`)
PAIRS = {name: {pair[0]: pair for pair in pairs} for name, pairs in COUNTED.items()}
TOLD_COUNTED = {name: Prompt({name: tuple(by_singular)}, name, COUNTED[name][0][0])
                for name, by_singular in PAIRS.items()}


def said_n(game: Game, name: str, pid: str) -> tuple[str, str]:
    """`said` for the texts told with a count (`COUNTED`): the variant's n_ pair."""
    return PAIRS[name][TOLD_COUNTED[name].told(game.state.phase, pid)]
