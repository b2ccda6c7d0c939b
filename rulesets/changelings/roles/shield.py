"""The Anti-Hate-Shield protects one player a night from abduction and exchange, never the
same player two nights in a row (step 3)."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import N_, NC_
from core.engine.refusals import Refused
from core.engine.role_state import Slot
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player

from ..hooks import ACTION_CHECKS, UNASKED_BY_OFFERS, define_role, duty, for_role
from ..night import NIGHT, NightStep, holders, subs_for
from ..state import ChangelingsState
from ..vocabulary import DUSK, PONIES, Stage

SHIELD = ActionSpec(ActionId("shield"), DUSK)
duty(Stage.DUSK, SHIELD)

ROLE = define_role(
    RoleSpec(RoleId("shield"), PONIES, (SHIELD,)),
    name=N_("Anti-Hate-Shield"),
    role_was=NC_("role was", "the Anti-Hate-Shield"),
    card=N_("You are the Anti-Hate-Shield. Each night you protect one player (yourself too) "
            "from abduction and exchange, but never the same player two nights in a row."),
    about=N_("Each night the Anti-Hate-Shield protects one player (itself too) from abduction "
             "and exchange, but never the same player two nights in a row."),
    actions={"shield": N_("Shield")},
)
# whom he shielded last and in which night, [player, night] (None: nobody that night)
SHIELD_LAST: Slot[list[PlayerId | int] | None] = Slot("shield_last", None)


@ACTION_CHECKS.at("shield")
def check_shield(game: Game, p: Player, targets: tuple[PlayerId, ...],
                 _: str | None) -> Refused | None:
    last = SHIELD_LAST.get(p)
    if targets and last and last[0] == targets[0] and last[1] == game.state.phase.number - 1:
        return Refused(N_("You cannot shield the same player two nights in a row."))
    return None


UNASKED_BY_OFFERS.add("shield")  # it looks at the target alone


@NIGHT.at(NightStep.SHIELD)
@for_role("shield")
def shield_step(game: Game) -> None:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every night
    night = state.night
    by_shield = {s.actor: s.targets[0] for s in subs_for(game, SHIELD.id)}
    for p in holders(game, "shield"):
        if p.role == "shield" and p.alive:
            target = by_shield.get(p.pid)
            SHIELD_LAST.set(p, [target, night.number] if target else None)
            if target and game.state.players[target].alive:
                night.shielded.add(target)
