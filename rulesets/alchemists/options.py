"""The host's options for the homunculus game: the values each may take and what it does
(shown by `/option` alone, in the chat's language)."""

from __future__ import annotations

from core.engine.messages import N_, NC_

CHOICES = {"stone_backfire": ("random", "always", "never"),
           "early_votes_needed": ("majority", "all")}
VALUES = {"random": N_("random"), "always": N_("always"), "never": N_("never"),  # as read
          "majority": N_("majority"), "all": N_("all")}
ABOUT = {
    "stone_backfire": N_("random, always or never: whether the Philosopher's Stone turns "
                         "against its holder by chance, every time, or never."),
    "stone_after_deaths": N_("a number (0 = drawn from 3 to 5): after how many deaths the "
                             "Philosopher's Stone appears."),
    "stone_holder": N_("a player's name (empty = drawn): who holds the Stone from the start."),
    "missed_vote_votes": N_("a number: the votes against a player who did not vote."),
    "missed_votes_modkill": N_("a number (0 = never): after this many missed votes a player "
                               "is removed."),
    "early_votes_needed": N_("majority or all: how many early votes end the day at once."),
    "early_close": N_("on or off: the night ends as soon as everyone with a task has acted."),
    "roles_public": N_("on or off: whether the roles in play are announced at the start."),
}
# An option's name in running text ("Setting changed: roles announced: off")
NAMES = {
    "stone_backfire": N_("the Stone's backfire"),
    "stone_after_deaths": N_("deaths before the Stone"),
    "stone_holder": N_("holder of the Stone"),
    "missed_vote_votes": N_("votes for a missed vote"),
    "missed_votes_modkill": N_("missed votes until removal"),
    "early_votes_needed": N_("early votes needed"),
    "early_close": N_("early end of the night"),
    "roles_public": N_("roles announced"),
}
# Short words a host may type for an option's name (`/option отдача всегда`), beside its id
# and its shown name; each translation is a comma-separated list
WORDS = {
    "stone_backfire": NC_("typed", "backfire"),
    "stone_after_deaths": NC_("typed", "deaths"),
    "stone_holder": NC_("typed", "holder"),
    "missed_vote_votes": NC_("typed", "penalty votes"),
    "missed_votes_modkill": NC_("typed", "removal"),
    "early_votes_needed": NC_("typed", "early votes"),
    "early_close": NC_("typed", "early end, early close"),
    "roles_public": NC_("typed", "announced, public roles"),
}
