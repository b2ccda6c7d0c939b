"""The game master's voice for the pony game: playful, quoting the show. Each major event has
several variants; the engine picks one with the game's seeded generator (`Game.narrate`).

Parameters: {number} the night or day, {name} the player, {role} his role as running text
names it (`hooks.ROLE_IN_TEXT`), {role_whom} the same as a verb's object ("chases Bob, the
Researcher, …", German "den Forscher": core/engine/forms.py), {side} a side.
"""

from __future__ import annotations

from core.engine.messages import N_

from .vocabulary import Cause

NIGHT_FALLS = (
    N_("Night {number} falls over Equestria. Everypony, to bed! Those with a task, send it to "
       "me in private."),
    N_("Night {number} falls, and Princess Luna raises the moon. Sleep tight, everypony! If you "
       "have a task, send it to me in private."),
    N_("Night {number} falls, and the lanterns of Ponyville go out one by one. Anypony with a "
       "task, send it to me in private, and no peeking!"),
    N_("Night {number} falls. Something is buzzing at the edge of the Everfree Forest… Those "
       "with a task, send it to me in private."),
    N_("Night {number} falls: even Pinkie Pie has stopped bouncing and gone to bed. Ponies with "
       "a task, send it to me in private."),
    N_("Night {number} falls. Lock your doors, hug your pillow, and if you have a task, send it "
       "to me in private."),
)
DAY_BEGINS = (
    N_("Day {number}: who is a changeling? Vote with /vote NAME until the deadline; the last "
       "vote counts."),
    N_("Princess Celestia raises the sun: day {number}! Point a hoof at a suspect with "
       "/vote NAME; only your last vote counts."),
    N_("Day {number} in Ponyville. Somepony here is not who they seem! Vote with /vote NAME; "
       "you may change your mind, the last vote counts."),
    N_("Good morning, everypony! Day {number} begins. Meet in the town square and vote with "
       "/vote NAME until the deadline; the last vote counts."),
    N_("Day {number}: today's friendship lesson is about trust. Vote with /vote NAME; only the "
       "last vote counts."),
    N_("Day {number}. The cupcakes are fresh and so are the suspicions. Vote with /vote NAME "
       "until the deadline; the last vote counts."),
    N_("Day {number}. Ponyville wakes up one pony short, and somepony here knows why. Vote "
       "with /vote NAME; the last vote counts."),
    N_("Day {number}: everypony made it through the night! Let's keep it that way. Vote with "
       "/vote NAME; the last vote counts."),
)
MORNING_QUIET = (
    N_("The sun rises over a quiet Ponyville. Nopony is missing."),
    N_("Princess Celestia raises the sun, and everypony is still here. What a wonderful "
       "morning!"),
    N_("Derpy delivers the morning mail (and a muffin). Nopony is missing!"),
    N_("The birds sing, the flowers bloom, and nopony has vanished. Pinkie Pie is already "
       "planning a party."),
    N_("A peaceful night in Ponyville: everypony wakes up safe in their own bed."),
    N_("Good morning, Ponyville! The hive went hungry tonight: nopony is missing."),
)
# {role} is the role as running text names it ("the Researcher", "a pony"); found by the
# cause as the removal gives it (a `Cause` is its own string: no `Cause(why)` to look it up)
REMOVED: dict[str, tuple[str, ...]] = {
    Cause.ABDUCTED: (
        N_("{name}, {role}, has vanished in the night: abducted by the changelings!"),
        N_("An empty bed and a trail of green slime: the changelings have taken {name}, who "
           "was {role}."),
        N_("Buzzing wings in the dark, and {name} is gone, carried off to the hive! Only now "
           "does Ponyville learn that {name} was {role}."),
        N_("Oh no! In the night the changelings snatched {name}, {role_whom}, right out of "
           "Ponyville."),
        N_("{name} went out for a midnight snack and never came back: the hive has abducted "
           "{role_whom}!"),
        N_("The hive has a new guest: {name}, {role}, was abducted in the night."),
    ),
    Cause.BANISHED: (
        N_("The vote is in: {name}, {role}, is banished from Ponyville."),
        N_("Ponyville has spoken! {name} packs the saddlebags and leaves town, and everypony "
           "learns that {name} was {role}."),
        N_("By popular vote, {name} is sent far away from Ponyville. Too late, the town "
           "learns that {name} was {role}."),
        N_("The town square has decided: {name} must leave Ponyville. As the gate closes, "
           "the truth comes out: {name} was {role}."),
        N_("With heavy hearts, everypony waves goodbye: {name}, {role}, is banished."),
        N_("{name} is banished from Ponyville, and only now does everypony see that {name} "
           "was {role}. Maybe a letter to Princess Celestia would have helped."),
    ),
    Cause.HEARTBREAK: (
        N_("{name}, {role}, cannot bear to go on alone and leaves Ponyville heartbroken."),
        N_("Without that special somepony there is no reason to stay: {name}, {role}, "
           "leaves with a broken heart."),
        N_("A single tear, one last look back: {name}, {role}, leaves Ponyville heartbroken."),
        N_("Some hearts cannot be mended, not even with magic. {name}, who was {role}, leaves "
           "with a broken heart."),
        N_("{name} gazes at the stars one last time and leaves, heart broken. Ponyville will "
           "remember {name} as {role}."),
        N_("Hearts and Hooves Day will never be the same: {name}, {role}, leaves with a "
           "broken heart."),
    ),
    Cause.PRANKED: (
        N_("{name}, {role}, fell for one prank too many and has left in a huff."),
        N_("A whoopee cushion, a pie in the face, a bucket of confetti… {name} has had "
           "enough and leaves Ponyville, and everypony learns that {name} was {role}!"),
        N_("Pranked! {name}, {role}, stomps out of Ponyville, dripping with frosting."),
        N_("Somepony pulled a prank so perfect that {name} left town and never came back. "
           "Under all that frosting was {role}!"),
        N_("The party cannon was loaded with glitter, and {name}, {role}, stood right in "
           "front of it. Goodbye, {name}!"),
        N_("{name} opened the wrong cupcake box and found hot sauce inside. Too much! {name}, "
           "{role}, leaves town."),
    ),
    Cause.CHASED: (
        N_("A furious drama queen chases {name}, {role_whom}, out of town."),
        N_("“This is the worst. Possible. Thing!” A furious drama queen chases {name} out of "
           "Ponyville, and out comes the truth: {name} was {role}."),
        N_("A dramatic wail, a swoon onto the fainting couch, and then the chase: {name}, "
           "{role}, flees Ponyville!"),
        N_("Nopony crosses a drama queen twice. {name}, who was {role}, is chased all the way "
           "past Sweet Apple Acres."),
        N_("With one last dramatic flourish, the drama queen sends {name}, {role_whom}, running "
           "out of town."),
    ),
    Cause.FANATIC: (
        N_("The fanatic struck: {name}, {role}, is gone."),
        N_("Out of nowhere, the fanatic strikes and sweeps {name}, {role_whom}, out of Ponyville!"),
        N_("Nopony saw it coming, least of all {name}, who was {role}: the fanatic has "
           "struck."),
        N_("The fanatic pointed a hoof at random, and it landed on {name}, {role_whom}. Gone!"),
        N_("Too much zeal, too little aim: the fanatic has struck, and {name}, {role}, is "
           "gone."),
    ),
    Cause.FLED: (
        N_("{name}, {role}, fled Ponyville screaming."),
        N_("AAAAAH! {name}, {role}, gallops out of Ponyville screaming and does not stop "
           "until Canterlot."),
        N_("Too much confusion for one little head: {name}, who was {role}, runs away "
           "screaming."),
        N_("{name} took one look in the mirror, shrieked, and fled Ponyville. Looking back "
           "out of the mirror was {role}."),
        N_("A scream echoes through the night, and a cloud of dust is all that is left of "
           "{name}, who was {role}."),
    ),
    Cause.LEFT: (
        N_("{name}, {role}, has left the game."),
        N_("{name} packs their saddlebags and trots out of the game; {name} was {role}."),
        N_("{name}, who was {role}, has had enough adventure for now and leaves the game."),
        N_("A last wave of the hoof, and {name} is out of the game. {name} was {role}."),
    ),
    Cause.LEFT_CHAT: (
        N_("{name}, {role}, has left the group, and with it the game."),
        N_("{name} trotted out of the group and never came back: out of the game goes "
           "{name}, who was {role}."),
        N_("The door of the group swings shut behind {name}. Whoever leaves Ponyville "
           "leaves the game too: {name} was {role}."),
        N_("{name} slipped out of the group, so the game goes on without them. {name} was "
           "{role}."),
    ),
    Cause.KICKED: (
        N_("{name}, {role}, was removed from the group, and so from the game."),
        N_("Out of the group and out of the game: {name}, who was {role}, has been shown "
           "the door."),
        N_("{name} was put out of the group, and the game goes on without {name}, who was "
           "{role}."),
        N_("No place in the group, no place in the game: {name} has to go. {name} was "
           "{role}."),
    ),
    Cause.MODKILL: (
        N_("The host has removed {name}, {role_whom}, from the game."),
        N_("By order of the host, {name}, {role}, leaves the game."),
        N_("A royal decree from the host: {name}, who was {role}, is out of the game."),
        N_("The host waves a hoof, and {name}, {role}, is gone from the game."),
        N_("{name} has been removed from the game by the host. Farewell to {name}, who was "
           "{role}!"),
    ),
}
EXCHANGED = (
    N_("In the night you were exchanged: you are a changeling now and win with them."),
    N_("You wake up with a strange buzzing in your head… You have been exchanged! You are a "
       "changeling now and win with the hive."),
    N_("Holes in your hooves, green eyes in the mirror: you were exchanged in the night. You are "
       "a changeling now and win with the changelings."),
    N_("The hive has claimed you. You are a changeling now, and from today on you win with the "
       "changelings."),
    N_("Shh! In the night the changelings exchanged you. You are one of them now and win with "
       "them. Act natural!"),
)
# an exchanged lover whose pair is mixed now: no side to win with (CH-LOVE [revised]); his new
# goal follows in its own message
EXCHANGED_IN_LOVE = (
    N_("In the night you were exchanged: you are a changeling now. But your heart still "
       "belongs to {partner}…"),
    N_("You wake up with a strange buzzing in your head… You have been exchanged! You are a "
       "changeling now, yet your heart still beats for {partner}."),
    N_("The hive has claimed you, but not your heart: you are a changeling now, and still "
       "head over hooves for {partner}."),
    N_("Shh! In the night the changelings exchanged you. You are one of them now, but your "
       "heart still belongs to {partner}…"),
)
WON = {
    "ponies": (
        N_("The game is over: the ponies win! Friendship is magic."),
        N_("The game is over: the last changeling is unmasked and the ponies win! Everypony, "
           "to Sugarcube Corner for cupcakes!"),
        N_("The game is over: the ponies win! Princess Celestia is very proud of everypony."),
        N_("The game is over: the ponies win! Pinkie Pie is already firing the party cannon."),
        N_("The game is over: the hive is beaten, Ponyville is safe, and the ponies win! "
           "Friendship is magic."),
        N_("The game is over: the ponies win! That was at least twenty percent cooler than "
           "last time."),
    ),
    "changelings": (
        N_("The game is over: the changelings win! The hive rules Ponyville."),
        N_("The game is over: the changelings win! Queen Chrysalis and the hive feast on "
           "Ponyville's love."),
        N_("The game is over: the changelings win! Nopony was who they seemed to be."),
        N_("The game is over: the changelings win! Somewhere, a whole hive is buzzing with "
           "delight."),
        N_("The game is over: the changelings win! Better luck next time, everypony."),
    ),
    "lovers": (
        N_("The game is over: the lovers win! Love conquers everything."),
        N_("The game is over: the lovers win! A pony and a changeling, hoof in hoof, against "
           "the world."),
        N_("The game is over: the lovers win! Even a changeling heart can learn that love is "
           "magic."),
        N_("The game is over: the lovers win! Nopony else is left, but they have each other."),
        N_("The game is over: the lovers win! For them, Hearts and Hooves Day lasts forever."),
    ),
}
DRAW = (
    N_("The game is over: nopony is left, nobody wins."),
    N_("The game is over: Ponyville is completely empty. Nopony is left, and nobody wins."),
    N_("The game is over: not a single pony or changeling remains. Nobody wins."),
    N_("The game is over: not even Pinkie Pie is left to throw a party. Nopony is left; nobody "
       "wins."),
    N_("The game is over: the last lantern goes out over an empty Ponyville. Nopony is left, "
       "nobody wins."),
)

# A banishment the vote did not decide (CH-MAYOR): the mayor broke the tie, or, with no mayor
# to do it, chance did. The vote's own texts ("Ponyville has spoken!") would tell a wrong story.
BANISHED_BY_MAYOR = (
    N_("The mayor has the last word: {name} must leave Ponyville. Only now does everypony "
       "learn that {name} was {role}."),
    N_("One tap of the mayor's hoof, and the tie is broken: {name} packs the saddlebags. "
       "{name} was {role}."),
    N_("The mayor points a hoof at {name}: banished from Ponyville! As the gate closes, the "
       "truth comes out: {name} was {role}."),
    N_("A heavy choice for the mayor, but a choice it is: {name} leaves Ponyville, and "
       "everypony learns that {name} was {role}."),
)
BANISHED_BY_CHANCE = (
    N_("Fate has drawn the short straw for {name}, who must leave Ponyville. {name} was "
       "{role}."),
    N_("A coin spins, a coin falls, and {name} is banished. Too late, Ponyville learns that "
       "{name} was {role}."),
    N_("No mayor to decide, so the luck of the draw does: {name} leaves town. {name} was "
       "{role}."),
    N_("Eeny, meeny, miny, moe… it lands on {name}, who is banished from Ponyville. {name} "
       "was {role}."),
)

# What the openers and quiet mornings show (`variety.Motifs`): a day's opener never repeats its
# dawn's image (a sun raised twice, two good mornings); "loss" openers need a night with a
# loss, "calm" ones a night without; "derpy" needs Derpy (the show's mare) still around: once
# the player who was Derpy has left, the mail no longer comes.
MOTIFS: dict[str, frozenset[str]] = {
    DAY_BEGINS[1]: frozenset({"sun"}),
    DAY_BEGINS[3]: frozenset({"good morning"}),
    DAY_BEGINS[6]: frozenset({"loss"}),
    DAY_BEGINS[7]: frozenset({"calm"}),
    MORNING_QUIET[0]: frozenset({"sun"}),
    MORNING_QUIET[1]: frozenset({"sun"}),
    MORNING_QUIET[2]: frozenset({"derpy"}),
    MORNING_QUIET[5]: frozenset({"good morning"}),
}
