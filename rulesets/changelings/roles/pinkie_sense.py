"""Pinkie Sense foresees at dusk who will be abducted; at dawn (step 7), once per game each,
she prevents a foreseen abduction or pranks a player out of the game."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId, SlotId
from core.engine.messages import N_, NC_, player, to_player
from core.engine.refusals import Refused
from core.engine.role_state import Slot
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player

from ..hooks import ACTION_CHECKS, REVERSES, define_role, duty, for_role
from ..night import NIGHT, NightStep, holders
from ..removal import strike
from ..standing import is_changeling, passive_works
from ..state import ChangelingsState, changelings_state
from ..team import call_off_abduction
from ..vocabulary import DAWN, PONIES, Cause, Stage
from ..vocabulary import NIGHT as WHOLE_NIGHT
from ..voice import said


@event_kind("prevented")
@dataclass(frozen=True, slots=True)
class Prevented(Event):
    """Pinkie Sense stopped an abduction."""

    target: PlayerId

PREVENT = ActionSpec(ActionId("prevent"), DAWN, targets=0, slot=SlotId("pinkie"))
PRANK = ActionSpec(ActionId("prank"), WHOLE_NIGHT, self_ok=False, harmful=True,
                   slot=SlotId("pinkie"))
duty(Stage.DAWN, PREVENT, PRANK)

ROLE = define_role(
    RoleSpec(RoleId("pinkie_sense"), PONIES, (PREVENT, PRANK)),
    name=N_("Pinkie Sense"),
    role_was=NC_("role was", "the Pinkie Sense"),
    card=N_("You have the Pinkie Sense. At dusk you sense who will be abducted. Once per game "
            "you may prevent an abduction you foresaw, and once per game you may prank a "
            "player out of the game."),
    about=N_("Whoever has the Pinkie Sense feels at dusk who will be abducted, may prevent one "
             "such abduction per game, and may prank one player out of the game once per game."),
    actions={"prevent": N_("Prevent"), "prank": N_("Prank")},
)
# each power once per game: an abduction stopped, a prank played
PREVENT_SPENT: Slot[bool] = Slot("prevent_used", False)
PRANK_SPENT: Slot[bool] = Slot("prank_used", False)


@ACTION_CHECKS.at("prevent")
def check_prevent(game: Game, p: Player, targets: tuple[PlayerId, ...],
                  _: str | None) -> Refused | None:
    if PREVENT_SPENT.get(p):
        return PREVENT_USED
    if not changelings_state(game).night.foresight.get(p.pid):
        return NOTHING_TO_PREVENT
    return None


# made once (see hooks.ActionCheck): `offers` asks these checks for every pinkie all night
PREVENT_USED = Refused(N_("You have already prevented an abduction in this game."))
NOTHING_TO_PREVENT = Refused(N_("You foresaw no abduction tonight, so there is nothing to "
                                "prevent."))
PRANK_USED = Refused(N_("You have already played your prank in this game."))


@ACTION_CHECKS.at("prank")
def check_prank(game: Game, p: Player, targets: tuple[PlayerId, ...],
                _: str | None) -> Refused | None:
    if PRANK_SPENT.get(p):
        return PRANK_USED
    return None


@NIGHT.at(NightStep.FORESIGHT)
@for_role("pinkie_sense")
def foresee(game: Game) -> None:
    # pinkie foresees only an abduction that will take effect: not one on a changeling (the
    # team's target awakened by the queen this very night is one now)
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every night
    night = state.night
    pending = night.abduction
    if pending is not None and is_changeling(game.state.players[pending]):
        pending = None
    for p in holders(game, "pinkie_sense"):  # (`passive_works` asks whether still in)
        if p.role == "pinkie_sense" and passive_works(p):
            night.foresight[p.pid] = pending
            if pending == p.pid:
                game.tell(to_player(p.pid), said(game, "PINKIE_SELF", p.pid))
            elif pending:
                game.tell(to_player(p.pid), said(game, "PINKIE_TINGLES", p.pid),
                          name=player(pending))
            else:
                game.tell(to_player(p.pid), said(game, "PINKIE_QUIET", p.pid))


@NIGHT.at(NightStep.PINKIE)
@for_role("pinkie_sense")
def prevent_or_prank(game: Game) -> None:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every night
    night = state.night
    sent = [s for s in game.state.subs.values() if s.action in ("prevent", "prank")]
    if len(sent) > 1:  # most nights one or none: nothing to sort
        sent.sort(key=lambda s: game.state.players[s.actor].seat)
    for sub in sent:
        pinkie = game.state.players[sub.actor]
        if not pinkie.alive:
            continue
        if sub.action == "prevent":  # used up only when it stopped an abduction
            if night.abduction is not None and not is_changeling(
                    game.state.players[night.abduction]):
                PREVENT_SPENT.set(pinkie, True)
                game.record(Prevented(target=night.abduction))
                call_off_abduction(night)
                game.tell(to_player(pinkie.pid), N_("You stopped the abduction in time!"))
        else:
            PRANK_SPENT.set(pinkie, True)
            target = game.state.players[sub.targets[0]]
            if target.alive:
                strike(game, target, Cause.PRANKED, pinkie.pid, hold=True)


@REVERSES.at("pinkie_sense")
def may_still_prank_or_prevent(game: Game, p: Player) -> bool:
    return not (PRANK_SPENT.get(p) and PREVENT_SPENT.get(p))
