"""A message that carries a player names the role or side it tells of him by a parameter (a
`Ref`), never in the words of its msgid: so the scenario runner's `told` and the secrecy
checks see every role a message ties to a player ("{name} is {role}.", not "{name} is
Father.").

Read from each rule set's template (.pot): a msgid with a player's placeholder names no role
or side of its rule set as a word, but for the messages listed below, each with its reason. The open
ones wait for a form of the role's name that the vocabulary does not have yet (German needs
the case the sentence governs, "the confused changeling" has no form of its own)."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from core.engine.registry import load_ruleset

from ..conftest import ROOT

PLAYER = re.compile(r"\{(name|names|partner|first|second|target|holder|voter)\}")
# in the pony game every player is a pony: the plain role's and the town's name are its words
# for players
NOT_A_ROLE_WORD = frozenset({"pony", "ponies"})

# the role or side named is who struck, in the group's public narration, not the player
# carried
STRUCK_BY = {
    "A furious drama queen chases {name}, {role_whom}, out of town.",
    "Nopony crosses a drama queen twice. {name}, who was {role}, is chased all the way past "
    "Sweet Apple Acres.",
    "With one last dramatic flourish, the drama queen sends {name}, {role_whom}, running out of "
    "town.",
    "“This is the worst. Possible. Thing!” A furious drama queen chases {name} out of "
    "Ponyville, and out comes the truth: {name} was {role}.",
    "Nopony saw it coming, least of all {name}, who was {role}: the fanatic has struck.",
    "Out of nowhere, the fanatic strikes and sweeps {name}, {role_whom}, out of Ponyville!",
    "The fanatic pointed a hoof at random, and it landed on {name}, {role_whom}. Gone!",
    "The fanatic struck: {name}, {role}, is gone.",
    "Too much zeal, too little aim: the fanatic has struck, and {name}, {role}, is gone.",
    "Father is gone. {name} is a homunculus too ({role}); agree on one victim each night.",
    "An empty bed and a trail of green slime: the changelings have taken {name}, who was "
    "{role}.",
    "Oh no! In the night the changelings snatched {name}, {role_whom}, right out of "
    "Ponyville.",
    "The changelings dragged {name} away in the night, but let them go again. {name} has lost "
    "their voice.",
    "Twitchy tail, fluttery ears: the changelings are after {name} tonight!",
    "{name}, {role}, has vanished in the night: abducted by the changelings!",
}
# the role or side named is the reader's own (his power, his new side), told only to him
HIS_OWN = {
    "Doozy alert! Your Pinkie Sense says {name} will be abducted tonight.",
    "Your Pinkie Sense tingles: {name} will be abducted tonight.",
    "In the night you were exchanged: you are a changeling now. But your heart still belongs "
    "to {partner}…",
    "The hive has claimed you, but not your heart: you are a changeling now, and still head "
    "over hooves for {partner}.",
    "Shh! In the night the changelings exchanged you. You are one of them now, but your heart "
    "still belongs to {partner}…",
    "You wake up with a strange buzzing in your head… You have been exchanged! You are a "
    "changeling now, yet your heart still beats for {partner}.",
    "You wake up: you were a changeling all along! The hive welcomes you, but your heart still "
    "belongs to {partner}.",
    "Now you and {partner} are both changelings, heart and hive as one. Your goal has changed "
    "again: you play {side_with} and no longer need to be the last two.",
}
# still in words: open
OPEN = {
    "{name} is the confused changeling.",
    "{name} has joined the changelings.",
    "Your fellow changeling: {names}.",
    "Your fellow changelings ({count}): {names}.",
    "{first} and {second} were lovers, heart to heart and hoof in hoof.",
    "The Father: {names}.",
    "The Father's mantle passed on, heir after heir: {names}.",
    "The Xing Alchemist: {names}.",
    "The Xing Alchemist's duty passed on: {names}.",
}
LISTED = STRUCK_BY | HIS_OWN | OPEN


def roles_in_words(ruleset_id: str) -> dict[str, list[str]]:
    """Each msgid of the rule set's catalog that carries a player, with the role names in it."""
    ruleset = load_ruleset(ruleset_id)
    names = {re.sub(r"^the ", "", name.lower()) for kind in ("role", "side")
             for name in ruleset.vocabulary[kind].values()}
    with (ROOT / "rulesets" / ruleset_id / "locales" / f"{ruleset_id}.pot").open("rb") as fh:
        catalog = read_po(fh)
    found = {}
    for message in catalog:
        for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
            if not msgid or not PLAYER.search(msgid):
                continue
            named = sorted(n for n in names - NOT_A_ROLE_WORD
                           if re.search(rf"(?<![\w{{]){re.escape(n)}(?![\w}}])", msgid.lower()))
            if named:
                found[msgid] = named
    return found


@pytest.mark.parametrize("ruleset_id", ["changelings", "alchemists"])
def test_a_message_carrying_a_player_names_roles_only_by_parameters(ruleset_id: str) -> None:
    assert set(roles_in_words(ruleset_id)) <= LISTED


def test_the_listed_exceptions_are_still_in_the_catalogs() -> None:
    found = set(roles_in_words("changelings")) | set(roles_in_words("alchemists"))
    assert found >= LISTED  # one turned into parameters leaves the list too
