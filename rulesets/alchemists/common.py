"""What every part of the homunculus game shares: the sides (rules §1), the removal causes
(§9), the phase stages actions are sent in, their names, and small questions about players —
the side, what a check shows, the homunculi's chain of command (AL-FATHER), links."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter

from core.engine.causes import OutOfStory
from core.engine.events import Event, event_kind
from core.engine.forms import SideForm
from core.engine.game import Game
from core.engine.ids import PlayerId
from core.engine.messages import N_, NC_
from core.engine.phase import Stage as CoreStage
from core.engine.state import Player

from .hooks import ROLES
from .state import AlchemistsState


@event_kind("succession")
@dataclass(frozen=True, slots=True)
class Succession(Event):
    """A player takes over a role's line of succession (`role`: whose line, e.g. "father")."""

    role: str
    player: PlayerId

TOWN, HOMUNCULI, ISHVALAN, CRIMSON, GREED = "town", "homunculi", "ishvalan", "crimson", "greed"
SIDES = (TOWN, HOMUNCULI, ISHVALAN, CRIMSON, GREED)
# Sides that may receive the Stone when it appears or passes at random (AL-STONE).
STONE_SIDES = frozenset({TOWN, ISHVALAN, CRIMSON, GREED})
LONERS = frozenset({ISHVALAN, CRIMSON, GREED})



class Cause(StrEnum):
    """How a player leaves the homunculus game (the stored strings are the values)."""

    KILLED = "killed"
    ABSORBED = "absorbed"
    EXECUTED = "executed"
    EXPLODED = "exploded"
    TAKEN = "taken"
    BACKFIRE = "backfire"
    POISONED = "poisoned"
    MODKILL = OutOfStory.MODKILL.value
    MISSED = OutOfStory.MISSED.value  # removed for missed votes (AL-MISS), not by the host
    LEFT = OutOfStory.LEFT.value  # the player's own /flee, treated as a modkill
    LEFT_CHAT = OutOfStory.LEFT_CHAT.value  # left the game's chat: treated as /flee
    KICKED = OutOfStory.KICKED.value  # kicked or banned from the game's chat: as /flee


CAUSES = tuple(Cause)

class Stage(StrEnum):
    """The windows of the homunculus game (the stored names are the values)."""

    NONE = CoreStage.NONE.value  # the single night stage (phase "night N")
    VOTE = "vote"
    REACTIONS = CoreStage.REACTIONS.value


class Status(StrEnum):
    """The statuses the homunculus game shows of a player (`statuses_of`, for scenario
    files), worked out from its state rather than held; the early vote (AL-EARLY) is the
    core's own `Status.EARLY`, which the players hold (the stored strings are the values)."""

    LINKED = "linked"  # linked with another player today
    VOTE_VOID = "vote_void"  # his vote counts for nothing today
    STONE = "stone"  # holds the Stone


AT_NIGHT = frozenset({Stage.NONE})
BY_DAY = frozenset({Stage.VOTE, Stage.REACTIONS})
ANY_TIME = AT_NIGHT | BY_DAY
# A phase as it is named ("Day 2 (vote)"): the day's number, then its window (the night has one)
STAGE_NAMES: dict[str, str] = {Stage.VOTE: N_("Day {number} (vote)"),
               Stage.REACTIONS: N_("Day {number} (after the verdict)")}

# What a check shows of a loner, and so the side AL-REVEAL publishes for him [revised]: the
# source's «Мафия/город/одиночка» has one word for the three loners.
LONER = "loner"
SIDE_NAMES = {TOWN: N_("the State Alchemists"), HOMUNCULI: N_("the homunculi"),
              ISHVALAN: N_("the Ishvalan"), CRIMSON: N_("the Crimson Alchemist"),
              GREED: N_("Greed"), LONER: N_("the loners")}
# a side's forms in running text (core/engine/forms.py): with its article ("die Gier", the
# winners' line), as a predicate ("auf der Seite der Homunculi"), and the label beside a
# role, where a loner is a loner ("Gier (Einzelgänger)", never "Gier (Gier)")
SIDE_FORMS: dict[str, dict[str, str]] = {
    SideForm.THE: {TOWN: NC_("side the", "the State Alchemists"),
                   HOMUNCULI: NC_("side the", "the homunculi"),
                   ISHVALAN: NC_("side the", "the Ishvalan"),
                   CRIMSON: NC_("side the", "the Crimson Alchemist"),
                   GREED: NC_("side the", "Greed"), LONER: NC_("side the", "the loners")},
    SideForm.WITH: {TOWN: NC_("side with", "on the State Alchemists' side"),
                    HOMUNCULI: NC_("side with", "on the homunculi's side"),
                    **dict.fromkeys((*LONERS, LONER),
                                    NC_("side with", "on nobody's side but their own"))},
    SideForm.LABEL: dict.fromkeys((*LONERS, LONER), NC_("side label", "loner")),
}

CAUSE_NAMES: dict[str, str] = {
    Cause.KILLED: N_("killed"), Cause.ABSORBED: N_("killed"), Cause.EXECUTED: N_("executed"),
    Cause.EXPLODED: N_("caught in the explosion"), Cause.TAKEN: N_("taken by Pride"),
    Cause.BACKFIRE: N_("destroyed by the Stone"), Cause.POISONED: N_("poisoned"),
    Cause.MODKILL: N_("removed by the host"), Cause.MISSED: N_("removed for missed votes"),
    Cause.LEFT: N_("left of their own accord"),
    Cause.LEFT_CHAT: N_("left the chat"), Cause.KICKED: N_("removed from the chat"),
}

CHECK_NAMES = {"homunculi": N_("a homunculus"), "town": N_("on the town's side"),
               "loner": N_("a loner"), "same": N_("on the same side"),
               "different": N_("on different sides")}


# The homunculus game's own part of the game state, `game.state.rs`: asked some ninety times a
# game (at every removal, phase, morning…), so a C getter, not a Python function (whose call
# costs many times more; `father` and the hottest paths read it in place).
state_of: Callable[[Game], AlchemistsState] = attrgetter("state.rs")


def side_of(p: Player) -> str:
    return ROLES[p.role].spec.side


def statuses_of(game: Game, p: Player) -> set[str]:
    """The statuses he holds, and those worked out from the game's state (`Status`)."""
    found = set(p.statuses)
    state = state_of(game)
    if any(p.pid in pair for pair in state.links):
        found.add(Status.LINKED.value)
    if game.state.vote_weights.get(p.pid) == 0:
        found.add(Status.VOTE_VOID.value)
    if state.stone.holder == p.pid:
        found.add(Status.STONE.value)
    return found


def check_result(p: Player) -> str:
    """What a check shows (xing's categories): homunculi, town or loner — and so what an
    execution publishes (AL-REVEAL [revised])."""
    side = side_of(p)
    return LONER if side in LONERS else side


def father(game: Game) -> Player | None:
    """The living father. There is never more than one: pride takes the role only once the
    original father is gone (AL-FATHER), so while he lives he is the answer."""
    state: AlchemistsState = game.state.rs  # `state_of`, inlined: asked at every action
    original = state.original_father
    first = None if original is None else game.state.players[original]
    if first is not None and first.alive and first.role == "father":
        return first
    for p in game.state.players.values():
        if p.alive and p.role == "father":
            return p
    return None


def homunculi(game: Game) -> list[Player]:
    # `side_of`, written out: a call per player
    return [p for p in game.state.players.values()
            if p.alive and ROLES[p.role].spec.side == HOMUNCULI]
