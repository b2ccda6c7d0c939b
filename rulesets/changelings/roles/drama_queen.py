"""The drama queen: abducted (at step 8) or banished (in the reactions window, CH-REACT), she
names a player who runs away with her — a chase."""

from __future__ import annotations

from collections.abc import Sequence

from core.engine.game import Game
from core.engine.ids import PlayerId, RoleId
from core.engine.messages import N_, NC_, Purpose, to_player
from core.engine.refusals import Refused
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Owed, Player

from .. import vocabulary
from ..hooks import (
    ACTION_CHECKS,
    ANSWER_OWED,
    EXTRA_ABILITIES,
    PROMPT_OWED,
    REMOVED,
    REVERSAL_OWED,
    REVERSES,
    define_role,
    duty,
    for_role,
    owed_action,
)
from ..night import NIGHT, NightStep
from ..removal import strike
from ..standing import passive_works
from ..state import ChangelingsState, changelings_state
from ..vocabulary import PONIES, RANK_CHASE, Cause, Stage, Status
from ..voice import said

CHASE = owed_action(ActionSpec(vocabulary.CHASE, frozenset({Stage.DAWN, Stage.REACTIONS}),
                               self_ok=False, harmful=True), N_("Chase"))
duty(Stage.DAWN, CHASE)

ROLE = define_role(
    RoleSpec(RoleId("drama_queen"), PONIES),
    name=N_("Drama Queen"),
    role_was=NC_("role was", "the Drama Queen"),
    card=N_("You are the Drama Queen. If you are abducted or banished, you pick a player who "
            "runs away with you."),
    about=N_("If the Drama Queen is abducted or banished, she picks a player who runs away "
             "with her."),
)


# read as a global: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and this is asked of every player at dawn
_DAWN = Stage.DAWN
_INACTIVE = Status.INACTIVE.value  # `.value` is a property: read once, not at every removal


def chase_owed_tonight(game: Game, p: Player) -> bool:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every player at dawn
    return state.night.chase_owed == p.pid and game.state.phase.stage == _DAWN


@EXTRA_ABILITIES.during(Stage.DAWN, role="drama_queen")
def chase_at_dawn(game: Game, p: Player) -> Sequence[ActionSpec]:
    # `chase_owed_tonight`, written out: asked of every drama queen offered her actions at
    # dawn, and only then (the table asks a stage's hooks in that stage alone)
    state: ChangelingsState = game.state.rs
    return (CHASE,) if state.night.chase_owed == p.pid else ()


@ACTION_CHECKS.at("chase")
def check_chase(game: Game, p: Player, targets: tuple[PlayerId, ...],
                _: str | None) -> Refused | None:
    owed = game.current_owed()
    if not chase_owed_tonight(game, p) and not (
            owed and owed.kind == "chase" and owed.player == p.pid):
        return Refused(N_("You can only chase when you are abducted or banished."))
    return None


@NIGHT.at(NightStep.CHASE_OWED)
@for_role("drama_queen")
def warn_the_abducted(game: Game) -> None:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every night
    night = state.night
    if night.abduction:
        target = game.state.players[night.abduction]
        if target.role == "drama_queen" and passive_works(target):
            night.chase_owed = target.pid
            game.tell(to_player(target.pid), N_("The changelings are coming for you! Before dawn "
                                                "you may name a player who runs away with you."))


@NIGHT.at(NightStep.DRAMA_QUEEN)
@for_role("drama_queen")
def chase_at_night(game: Game) -> None:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every night
    night = state.night
    queen_id = night.chase_owed
    night.chase_owed = None  # settled at step 8: no longer owed (CH-END)
    if queen_id is None or game.state.players[queen_id].alive:
        return
    sub = game.state.subs.get((queen_id, "chase"))
    if sub is None:
        return
    target = game.state.players[sub.targets[0]]
    if target.alive:
        strike(game, target, Cause.CHASED, queen_id, hold=True)


@REMOVED.at("drama_queen")
def banished_owes_chase(game: Game, p: Player, why: str) -> None:
    if why == Cause.BANISHED and _INACTIVE not in p.statuses:
        game.owe(CHASE.id, p.pid, [], RANK_CHASE)


@PROMPT_OWED.at("chase")
def ask_chase(game: Game, owed: Owed) -> None:
    game.tell(to_player(owed.player), said(game, "CHASE", owed.player),
              purpose=Purpose.ASKING)


@ANSWER_OWED.at("chase")
def settle_chase(game: Game, owed: Owed, target: PlayerId | None) -> None:
    if target is not None:
        strike(game, game.state.players[target], Cause.CHASED, owed.player, hold=False)


@REVERSAL_OWED.add
@for_role("drama_queen")
def chase_still_owed(game: Game) -> bool:
    owed_at_night = changelings_state(game).night.chase_owed
    # a drama queen modkilled before her abduction takes effect is owed nothing (CH-GONE)
    return bool(owed_at_night and game.state.players[owed_at_night].alive) or any(
        o.kind == "chase" for o in game.state.reactions)


@REVERSES.at("drama_queen")
def may_still_chase(game: Game, p: Player) -> bool:
    return True
