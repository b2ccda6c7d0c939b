"""The game master's voice for the homunculus game: dark and terse. Each major event has
several variants; the engine picks one with the game's seeded generator (`Game.narrate`).

Parameters: {number} the night or day, {names} the dead ({count} of them), {name} a player,
{side} his side, as a check shows it.
"""

from __future__ import annotations

from core.engine.messages import N_, n_

NIGHT_FALLS = (
    N_("Night {number}. The city sleeps; those who act, act now."),
    N_("Night {number}. Chalk scrapes on stone somewhere below the city. Those who act, act "
       "now."),
    N_("Night {number}. The street lamps die one by one. If you have work tonight, do it now."),
    N_("Night {number}. Curfew. Circles are drawn in the dark. Act now, or not at all."),
    N_("Night {number}. Father watches from beneath the city. Those who act, act now."),
    N_("Night {number}. Nothing is gained without a price. Those who act, act now."),
)
DAY_BEGINS = (
    N_("Day {number}. Everyone must vote: /vote NAME. The last vote counts."),
    N_("Day {number}. The city wakes and counts who is still standing. Everyone must vote: "
       "/vote NAME. The last vote counts."),
    N_("Day {number}. Someone among you is not human. Everyone must vote with /vote NAME; the "
       "last vote counts."),
    N_("Day {number}. The military wants a name. Everyone must vote: /vote NAME. The last vote "
       "counts."),
    N_("Day {number}. A verdict has its price. Everyone must vote: /vote NAME. The last vote "
       "counts."),
    N_("Day {number}. Silence is no alibi. Everyone must vote with /vote NAME; the last vote "
       "counts."),
    N_("Day {number}. The dead are cold by now, and their killers are among you. Everyone "
       "must vote: /vote NAME. The last vote counts."),
    N_("Day {number}. Everyone woke up. Someone made sure of it, or is only biding their time. "
       "Everyone must vote: /vote NAME. The last vote counts."),
)
# the night's dead, with their count (`narrate_n`): one body, or several
MORNING_DEAD = (
    n_("The city wakes. One body lies on the cobbles: {names}.",
       "The city wakes. {count} bodies lie on the cobbles: {names}."),
    n_("Dawn. One chalk outline on the pavement: {names}.",
       "Dawn. {count} chalk outlines on the pavement: {names}."),
    n_("The night's results: one victim, {names}.",
       "The night's results: {count} victims, {names}."),
    n_("Fog over the cobbles. The night took one life: {names}.",
       "Fog over the cobbles. The night took {count} lives: {names}."),
    n_("Morning. Found dead: {names}.", "Morning. {count} found dead: {names}."),
    n_("Blood in the gutters at first light. The city has paid its price: {names}.",
       "Blood in the gutters at first light. The city has paid its price, {count} lives: "
       "{names}."),
)
MORNING_QUIET = (
    N_("Morning. Nobody died tonight."),
    N_("The sun rises on no bodies. Do not mistake it for mercy."),
    N_("Dawn. The streets are clean. Nobody died."),
    N_("The city wakes. The night took nothing. This time."),
    N_("The night's toll: nothing. Nobody died; the debt is only deferred."),
    N_("A new day. Every bed is still warm: nobody died tonight."),
)
EXECUTED = (
    N_("{name} is executed."),
    N_("The sentence is carried out. {name} is dead."),
    N_("{name} is taken to the wall. One shot."),
    N_("{name} is executed. The secret dies with them."),
    N_("The city has chosen. {name} is executed."),
    N_("{name} is executed. Nobody asks what they were."),
)
# AL-REVEAL [revised]: {side} is what a check shows, as a predicate — "a homunculus", "on the
# town's side" or "a loner" (the source's «Мафия/город/одиночка»)
EXECUTED_REVEALED = (
    N_("{name} is executed. {name} was {side}."),
    N_("The sentence is carried out. {name} is dead; {name} was {side}."),
    N_("{name} is executed. The papers in the coat tell the truth: {name} was {side}."),
    N_("The city has chosen: {name} is executed. In the end, {name} was {side}."),
    N_("{name} is taken to the wall. One shot. {name} was {side}."),
    N_("{name} is executed. The blood does not lie: {name} was {side}."),
)
NOBODY_EXECUTED = (
    N_("Nobody is executed today."),
    N_("The city cannot decide. Nobody dies today."),
    N_("No verdict. The gallows stay empty today."),
    N_("Nobody is executed today. The guilty sleep well."),
    N_("Nobody is executed. The night will not hesitate."),
    N_("No sentence today. Hesitation has its own price."),
)
WON = {
    "town": (
        N_("The game is over. The State Alchemists have won."),
        N_("The game is over. The last enemy falls. The State Alchemists have won."),
        N_("The game is over. The circle beneath the city stays dark. The State Alchemists "
           "have won."),
        N_("The game is over. The dogs of the military held the line. The State Alchemists "
           "have won."),
        N_("The game is over. Humanity paid its price and survived. The State Alchemists have "
           "won."),
    ),
    "homunculi": (
        N_("The game is over. The homunculi have won."),
        N_("The game is over. The city is one great transmutation circle now. The homunculi "
           "have won."),
        N_("The game is over. Humans were only ever material. The homunculi have won."),
        N_("The game is over. The Ouroboros rules the city. The homunculi have won."),
        N_("The game is over. The red stones are harvested. The homunculi have won."),
    ),
    "ishvalan": (
        N_("The game is over. The Ishvalan has won."),
        N_("The game is over. Ishval is avenged. The Ishvalan has won."),
        N_("The game is over. The scarred arm has done its work. The Ishvalan has won."),
        N_("The game is over. Judgement came by one hand. The Ishvalan has won."),
        N_("The game is over. Destruction, and no reconstruction. The Ishvalan has won."),
    ),
    "crimson": (
        N_("The Crimson Alchemist wins as well."),
        N_("The Ishvalan is dead, and the Crimson Alchemist still stands. The Crimson Alchemist "
           "wins as well."),
        N_("The Crimson Alchemist walks away from the ruins, smiling, and wins as well."),
        N_("What a beautiful sound. The Crimson Alchemist wins as well."),
        N_("Red smoke clears. The Crimson Alchemist wins as well."),
    ),
    "greed": (
        N_("Greed wins as well."),
        N_("Greed wants everything. Greed wins as well."),
        N_("Greed came through untouched. Greed wins as well."),
        N_("The ultimate shield held. Greed wins as well."),
        N_("Greed never lies: Greed wins as well."),
    ),
}
LONERS_WON = (
    N_("The game is over. Only the loners are left."),
    N_("The game is over. No side is left standing; only the loners remain."),
    N_("The game is over. The factions are dust. Only the loners walk away."),
    N_("The game is over. The city is empty but for the loners."),
    N_("The game is over. Nobody won the war; only the loners survived it."),
)
DRAW = (
    N_("The game is over. Nobody is left alive; nobody wins."),
    N_("The game is over. The city is silent. Nobody is left alive; nobody wins."),
    N_("The game is over. Equivalent exchange, paid in full: nobody is left alive, nobody wins."),
    N_("The game is over. Only ash and chalk remain. Nobody is left alive; nobody wins."),
    N_("The game is over. The last circle closes on an empty city. Nobody wins."),
)
# AL-TIE: a tie of two with more than six alive executes both; with six or fewer, the one who
# reached the final count first. Told before the executions, which would otherwise follow each
# other (or one the other's tie) unexplained.
TIE_BOTH = (
    N_("A tie between {first} and {second}. The law does not choose: both are executed."),
    N_("{first} and {second}, equal votes. The city will not pick one; it takes both."),
    N_("The count is even: {first} and {second}. Two sentences, carried out together."),
    N_("No majority, only a tie: {first} and {second}. Both go to the wall."),
)
TIE_FIRST = (
    N_("A tie. The law names whoever reached the count first: {name}."),
    N_("Equal votes, but not equal speed: {name} reached the count first and answers for "
       "the tie."),
    N_("The votes are tied. The first to reach the final count pays: {name}."),
    N_("A tie, settled by the clock: {name} got there first."),
)

# What the openers and mornings show (`variety.Motifs`): a day's opener never repeats its
# dawn's image (the city waking twice, a price paid and a price named); "loss" openers need a
# night with deaths, "calm" ones a night without.
MOTIFS: dict[str, frozenset[str]] = {
    DAY_BEGINS[1]: frozenset({"wakes", "loss"}),
    DAY_BEGINS[4]: frozenset({"price"}),
    DAY_BEGINS[6]: frozenset({"loss"}),
    DAY_BEGINS[7]: frozenset({"calm"}),
    MORNING_DEAD[0][0]: frozenset({"wakes"}),
    MORNING_DEAD[5][0]: frozenset({"price"}),
    MORNING_QUIET[3]: frozenset({"wakes"}),
    MORNING_QUIET[4]: frozenset({"price"}),
}
