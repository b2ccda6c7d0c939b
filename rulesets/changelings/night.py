"""The two-stage night (rules §4, CH-NIGHT): dusk resolves steps 1–6, dawn steps 7–12.

The order is `NightStep`; each role module attaches what its role does to its step
(`@NIGHT.at(NightStep.X)`) and `resolve_dusk`/`resolve_dawn` walk the steps. A step reads the
submissions collected by the engine (last submission wins) and skips actors who have left at
an earlier step (CH-LAPSE), with the two exceptions the rules name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId
from core.engine.messages import GROUP, N_, player
from core.engine.night_order import NightOrder
from core.engine.phase import Phase, PhaseKind
from core.engine.state import Submission
from core.engine.variety import Openers, tagged

from . import flavour
from .hooks import MORNING_NEWS, MORNING_NOTES
from .removal import announce_removal
from .state import Night, changelings_state
from .vocabulary import Cause, Stage, Status
from .voice import said


@event_kind("inactive")
@dataclass(frozen=True, slots=True)
class Inactive(Event):
    """A player has not acted for too long."""

    player: PlayerId


class NightStep(IntEnum):
    """CH-NIGHT's order; each step says what it sets and what it uses (`night.*` are the
    fields of `state.Night`). Dusk walks LIAR … CHASE_OWED, dawn PINKIE … LOVE_POISON."""

    # dusk: rules steps 1–6, then what dusk tells at once
    LIAR = 1  # 1: sets the liar's fake role (liar.FAKED_ROLE, FAKED_NIGHT); used by RESEARCHER
    RESEARCHER = 2  # 2: uses the fake; turning the confused changeling sets night.turned_now
    # and night.team_fails (used by CHANGELINGS)
    SHIELD = 3  # 3: sets night.shielded (used by CHANGELINGS and LUCKY_VS_CHANGELINGS) and the
    # shield's last target (used by his next night's check)
    CHANGELINGS = 4  # 4: uses team_fails, turned_now, shielded; sets night.abduction and its
    # text (CH-AGREE, CH-ABDUCT) or performs the exchange at once (CH-EXCH)
    QUEEN = 5  # 5: the queen's check; may awaken the confused changeling
    LUCKY_VS_CHANGELINGS = 6  # 6: uses night.abduction, shielded; may redirect the abduction
    FORESIGHT = 7  # end of dusk: uses night.abduction; sets night.foresight (used by PINKIE)
    CHASE_OWED = 8  # end of dusk: uses night.abduction; sets night.chase_owed (the drama queen)
    # dawn: rules steps 7–12
    PINKIE = 9  # 7: prevent clears night.abduction and chase_owed; a prank strikes (held)
    ABDUCTION = 10  # right after 7 (CH-ABDUCT): night.abduction takes effect; sets
    # night.released (the derpy)
    DRAMA_QUEEN = 11  # 8: uses and clears night.chase_owed; the chase strikes (held)
    FANATIC = 12  # 9: a random other player is struck (held)
    LUCKY_OTHER = 13  # 10: uses night.held: the held strikes on the lucky
    MARE_DO_WELL = 14  # 11: sets the letter (used by the morning post and the next day)
    LOVE_POISON = 15  # 12: sets the lovers (night 1)


NIGHT: NightOrder[NightStep, Game] = NightOrder(NightStep)
# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and these are asked every night: its phase, and the
# first and last steps of its dusk and of its dawn
_NIGHT, _DUSK = PhaseKind.NIGHT, Stage.DUSK
_DUSK_STEPS = (NightStep.LIAR, NightStep.CHASE_OWED)
_DAWN_STEPS = (NightStep.PINKIE, NightStep.LOVE_POISON)
_INACTIVE = Status.INACTIVE.value  # and each living player's, where inactivity counts


def subs_for(game: Game, action: ActionId) -> list[Submission]:
    """Submissions of an action by actors still in the game, in seat order."""
    players = game.state.players
    found = [s for s in game.state.subs.values() if s.action == action and players[s.actor].alive]
    if len(found) > 1:  # most actions have one submission or none a night: no key to make
        found.sort(key=lambda s: players[s.actor].seat)
    return found


def begin_night(game: Game, number: int) -> None:
    state = changelings_state(game)
    state.night = Night(number=number)
    game.state.subs = {}
    game.set_phase(Phase.of(_NIGHT, number, _DUSK))
    hours = game.state.options.get("inactivity_hours")
    if hours:
        for p in game.state.living():
            if _INACTIVE not in p.statuses and game.state.clock - p.last_active >= hours * 3600:
                p.statuses.add(_INACTIVE)
                game.record(Inactive(player=p.pid))
                game.tell(GROUP, N_("{name} has been inactive too long and no longer counts "
                                    "until they act again."), name=player(p.pid))
    game.narrate(GROUP, flavour.NIGHT_FALLS, number=number)


def resolve_dusk(game: Game) -> None:
    NIGHT.walk(game, _DUSK_STEPS[0], _DUSK_STEPS[1])


def resolve_dawn(game: Game) -> None:
    NIGHT.walk(game, _DAWN_STEPS[0], _DAWN_STEPS[1])


_OPENERS = Openers(flavour.DAY_BEGINS, flavour.MOTIFS)
_DERPYS_MAIL = tagged(flavour.MORNING_QUIET, "derpy", flavour.MOTIFS)


def _without_derpy(game: Game) -> frozenset[int]:
    """Derpy's morning mail stops once the player who was Derpy has left (his role told).
    (A loop, not any() over a generator: asked at every quiet dawn.)"""
    for p in game.state.players.values():
        if p.role == "derpy" and not p.alive:
            return _DERPYS_MAIL
    return _NOTHING_RULED_OUT


_NOTHING_RULED_OUT: frozenset[int] = frozenset()


def day_opener(game: Game) -> str:
    """The day's opener, drawn knowing its dawn: no image the quiet morning just showed, no
    loss mourned after a night without one, no calm praised after one with a loss."""
    night = changelings_state(game).night
    return game.variant(flavour.DAY_BEGINS,
                        _OPENERS.ruled_out(night.dawn, "calm" if night.gone else "loss"))


def morning_post(game: Game) -> None:
    night = changelings_state(game).night
    for pid, why in night.gone:
        announce_removal(game, pid, why)
    told = bool(night.gone)
    for news in MORNING_NEWS:
        told = news(game) or told
    if not told:
        night.dawn = game.variant(flavour.MORNING_QUIET, _without_derpy(game))
        game.tell(GROUP, night.dawn)
    heir = night.new_mayor
    if heir is not None and game.state.players[heir].alive and \
            Status.MAYOR.value in game.state.players[heir].statuses:
        game.tell(GROUP, said(game, "NEW_MAYOR", "group"), name=player(heir))
    if night.abduction_text and any(w == Cause.ABDUCTED for _, w in night.gone):
        game.tell(GROUP, N_("A witness reports: “{text}”"), text=night.abduction_text)
    for note in MORNING_NOTES:
        note(game)
