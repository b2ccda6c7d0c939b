"""The two-stage night (rules §4, CH-NIGHT): dusk resolves steps 1–6, dawn steps 7–12.

The order is `NightStep`; each role module attaches what its role does to its step
(`@NIGHT.at(NightStep.X)`) and `resolve_dusk`/`resolve_dawn` walk the steps. A step reads the
submissions collected by the engine (last submission wins) and skips actors who have left at
an earlier step (CH-LAPSE), with the two exceptions the rules name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, TypeVar

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId
from core.engine.messages import GROUP, N_, player
from core.engine.night_order import NightOrder
from core.engine.phase import Phase, PhaseKind
from core.engine.state import Player, Submission
from core.engine.variety import Openers, tagged

from . import flavour
from .hooks import DAY_BEGINS, MORNING_NEWS, MORNING_NOTES, REVERSAL_OWED, ROLE_OF
from .removal import announce_removal
from .state import EXCHANGED_FROM, ChangelingsState, Night, changelings_state
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


@dataclass(frozen=True, slots=True)
class InPlay:
    """What a game runs of the handlers, in their order: those of the roles it was dealt and
    those of no single role (`hooks.ROLE_OF`). A role's handlers find nothing to do in a game
    without it, and most games deal few of the special roles."""

    roles: frozenset[str]
    dusk: tuple[Callable[[Game], None], ...]
    dawn: tuple[Callable[[Game], None], ...]
    morning_news: tuple[Callable[[Game], bool], ...]
    morning_notes: tuple[Callable[[Game], None], ...]
    day_begins: tuple[Callable[[Game], None], ...]
    reversal_owed: tuple[Callable[[Game], bool], ...]


# by the roles a game was dealt: all the handlers, and those it runs
_IN_PLAY: dict[frozenset[str], tuple[tuple[tuple[Callable[..., object], ...], ...], InPlay]] = {}
# the players of the game asked last, its `InPlay`, and its players by the role each had
# then (`holders`): a game asks at every night and day (one tuple, replaced whole, so that a
# reader never mixes two games)
_LAST: list[tuple[Any, Any, dict[str, list[Player]]]] = [(None, None, {})]
H = TypeVar("H", bound=Callable[..., object])


def in_play(game: Game) -> InPlay:
    """The handlers this game runs. A player's role changes only into the changeling's
    (exchange, awakening), so the roles it has, and those the exchanged had, are all the
    roles of its deal that may still act (worked out once a game)."""
    players = game.state.players
    last = _LAST[0]
    if last[0] is players:
        found: InPlay = last[1]
        return found
    by_role: dict[str, list[Player]] = {}
    for p in players.values():
        by_role.setdefault(p.role, []).append(p)
    dealt = set(by_role)
    for p in players.values():
        if p.counters:  # (most have none: no `Slot` to ask)
            was = EXCHANGED_FROM.get(p)
            if was is not None:
                dealt.add(was)
    roles = frozenset(dealt)
    dusk, dawn = NIGHT.plan(*_DUSK_STEPS), NIGHT.plan(*_DAWN_STEPS)
    every = (dusk, dawn, tuple(MORNING_NEWS), tuple(MORNING_NOTES), tuple(DAY_BEGINS),
             tuple(REVERSAL_OWED))
    kept = _IN_PLAY.get(roles)
    if kept is None or kept[0] != every:  # (a handler attached since: a test's own role)
        kept = _IN_PLAY[roles] = every, InPlay(
            roles, _run(dusk, roles), _run(dawn, roles), _run(MORNING_NEWS, roles),
            _run(MORNING_NOTES, roles), _run(DAY_BEGINS, roles), _run(REVERSAL_OWED, roles))
    found = kept[1]
    _LAST[0] = players, found, by_role
    return found


def holders(game: Game, role: str) -> list[Player]:
    """The players, in seat order, who had `role` when the game was first asked: a role
    changes only into the changeling's, so all who have it now (a role's step asks every
    night, without a pass over all the players)."""
    in_play(game)
    return _LAST[0][2].get(role, [])


def _run(handlers: Sequence[H], roles: frozenset[str]) -> tuple[H, ...]:
    """Those of the handlers a game with these roles runs."""
    return tuple(h for h in handlers if h not in ROLE_OF or ROLE_OF[h] in roles)


def resolve_dusk(game: Game) -> None:
    for step in in_play(game).dusk:
        step(game)


def resolve_dawn(game: Game) -> None:
    for step in in_play(game).dawn:
        step(game)


_OPENERS = Openers(flavour.DAY_BEGINS, flavour.MOTIFS)
_DERPYS_MAIL = tagged(flavour.MORNING_QUIET, "derpy", flavour.MOTIFS)


def _without_derpy(game: Game) -> frozenset[int]:
    """Derpy's morning mail stops once the player who was Derpy has left (his role told).
    (A loop, not any() over a generator: asked at every quiet dawn.)"""
    if "derpy" not in in_play(game).roles:
        return _NOTHING_RULED_OUT
    for p in game.state.players.values():
        if p.role == "derpy" and not p.alive:
            return _DERPYS_MAIL
    return _NOTHING_RULED_OUT


_NOTHING_RULED_OUT: frozenset[int] = frozenset()


def day_opener(game: Game) -> str:
    """The day's opener, drawn knowing its dawn: no image the quiet morning just showed, no
    loss mourned after a night without one, no calm praised after one with a loss."""
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every day
    night = state.night
    return game.variant(flavour.DAY_BEGINS,
                        _OPENERS.ruled_out(night.dawn, "calm" if night.gone else "loss"))


def morning_post(game: Game) -> None:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every day
    night = state.night
    for pid, why in night.gone:
        announce_removal(game, pid, why)
    told = bool(night.gone)
    for news in in_play(game).morning_news:
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
    for note in in_play(game).morning_notes:
        note(game)
