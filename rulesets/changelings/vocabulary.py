"""The pony game's words: sides, removal causes, the windows' stages, kinds of pony, deadlines
and the rules summary. (Roles and their actions are named in their own modules, `roles/`.)"""

from __future__ import annotations

from enum import StrEnum

from core.engine.causes import OutOfStory
from core.engine.forms import SideForm
from core.engine.ids import ActionId
from core.engine.messages import N_, NC_
from core.engine.phase import Stage as CoreStage
from core.engine.windows import WindowSpec

PONIES, CHANGELINGS, LOVERS = "ponies", "changelings", "lovers"
SIDES = (PONIES, CHANGELINGS, LOVERS)



class Cause(StrEnum):
    """How a player leaves the pony game (the stored strings are the values)."""

    ABDUCTED = "abducted"
    BANISHED = "banished"
    PRANKED = "pranked"
    CHASED = "chased"
    FANATIC = "fanatic"
    HEARTBREAK = "heartbreak"
    FLED = "fled"
    MODKILL = OutOfStory.MODKILL.value
    LEFT = OutOfStory.LEFT.value  # the player's own /flee, treated as the host's removal
    LEFT_CHAT = OutOfStory.LEFT_CHAT.value  # left the game's chat: treated as /flee
    KICKED = OutOfStory.KICKED.value  # kicked or banned from the game's chat: as /flee


CAUSES = tuple(Cause)
# Removals by a game effect break the partner's heart (CH-LOVE); a host removal does not.
HEARTBREAKING = frozenset({Cause.ABDUCTED, Cause.BANISHED, Cause.PRANKED, Cause.CHASED,
                           Cause.FANATIC, Cause.FLED})

class Status(StrEnum):
    """A pony's statuses (the stored strings are the values); `Player.statuses` holds the
    values, plain strings (`core/engine/statuses.py` says why)."""

    MAYOR = "mayor"  # holds the office (CH-MAYOR)
    LOVER = "lover"  # one of the pair (CH-LOVE)
    VOICELESS = "voiceless"  # may not vote (CH-DERPY)
    INACTIVE = "inactive"  # not counted until he acts again (CH-INACT)


# Action stages: `dusk` and `dawn` are the two night windows (rules §4), `election`, `vote` and
# `reactions` the day windows. Dawn-step actions may already be sent at dusk (the source lets
# the night's actions arrive from its start), except those that need what dusk reveals.
class Stage(StrEnum):
    """The windows of the pony game's days and nights (the stored names are the values)."""

    ELECTION = "election"
    VOTE = "vote"
    REACTIONS = CoreStage.REACTIONS.value
    DUSK = "dusk"
    DAWN = "dawn"
    NONE = CoreStage.NONE.value  # "night N" as a start names no window: its dusk


NIGHT = frozenset({Stage.DUSK, Stage.DAWN})
DUSK = frozenset({Stage.DUSK})
DAWN = frozenset({Stage.DAWN})
ANY_DAY = frozenset({Stage.VOTE, Stage.REACTIONS})
VOTING = frozenset({Stage.ELECTION, Stage.VOTE})  # the windows with a vote
ALWAYS = frozenset({Stage.ELECTION, Stage.VOTE, Stage.REACTIONS, Stage.DUSK, Stage.DAWN})
# A phase as it is named ("Day 2 (vote)"): the day or night's number, then its window
STAGE_NAMES: dict[str, str] = {
    Stage.ELECTION: N_("Day {number} (mayor election)"),
    Stage.VOTE: N_("Day {number} (vote)"),
    Stage.REACTIONS: N_("Day {number} (after the verdict)"),
    Stage.DUSK: N_("Night {number} (dusk)"),
    Stage.DAWN: N_("Night {number} (dawn)"),
}

SIDE_NAMES = {PONIES: N_("the ponies"), CHANGELINGS: N_("the changelings"),
              LOVERS: N_("the lovers")}
# a side's forms in running text (core/engine/forms.py): with its article ("die Ponys", the
# winners' line), and as a predicate ("you play on the lovers' side"); no side is a loner's
SIDE_FORMS: dict[str, dict[str, str]] = {
    SideForm.THE: {PONIES: NC_("side the", "the ponies"),
                   CHANGELINGS: NC_("side the", "the changelings"),
                   LOVERS: NC_("side the", "the lovers")},
    SideForm.WITH: {PONIES: NC_("side with", "on the ponies' side"),
                    CHANGELINGS: NC_("side with", "on the changelings' side"),
                    LOVERS: NC_("side with", "on the lovers' side")},
}

CAUSE_NAMES: dict[str, str] = {
    Cause.ABDUCTED: N_("abducted"), Cause.BANISHED: N_("banished"),
    Cause.PRANKED: N_("pranked"), Cause.CHASED: N_("chased away"),
    Cause.FANATIC: N_("struck by the fanatic"), Cause.HEARTBREAK: N_("left heartbroken"),
    Cause.FLED: N_("fled screaming"), Cause.MODKILL: N_("removed by the host"),
    Cause.LEFT: N_("left of their own accord"),
    Cause.LEFT_CHAT: N_("left the group"), Cause.KICKED: N_("removed from the group"),
}

# Plain ponies get a kind for flavour only (rules §2).
KIND_NAMES = {"earth_pony": N_("earth pony"), "unicorn": N_("unicorn"), "pegasus": N_("pegasus")}

# Deadlines per window (rules §3): seconds at the quick pace; at the forum pace a clock time
# in the game's time zone, or (clock time, minimum seconds). The host may set his own with
# /timer (within the default bounds).
WINDOWS = (
    WindowSpec(Stage.ELECTION.value, N_("mayor election"), 180, "19:30"),
    WindowSpec(Stage.VOTE.value, N_("vote"), 240, "19:30"),
    WindowSpec(Stage.REACTIONS.value, N_("after the verdict"), 45, ("20:00", 600)),
    WindowSpec(Stage.DUSK.value, N_("dusk"), 90, "22:30"),
    WindowSpec(Stage.DAWN.value, N_("dawn"), 60, "08:00"),
)
WINDOW_NAMES = {w.id: w.label for w in WINDOWS}

RULES_SUMMARY = N_(
    "Changelings hide among the ponies of Ponyville. Day 1 elects a mayor; then each night "
    "the changelings abduct a pony (dusk) and the night roles act (dusk and dawn), and each "
    "day everypony votes to banish a suspect. The ponies win when no changeling is left; the "
    "changelings win when they are as many as the others. A mixed pair of lovers wins if "
    "they are the last two.")

# Ranks order the owed choices of a reactions window (CH-REACT): the tie-break, then the
# drama queen's chase, then the successor.
RANK_TIEBREAK, RANK_CHASE, RANK_SUCCESSOR = 1, 2, 3
# Each is answered by the action of its own id (mayor.py's, the drama queen's).
TIEBREAK, CHASE, SUCCESSOR = (ActionId(kind) for kind in ("tiebreak", "chase", "successor"))
