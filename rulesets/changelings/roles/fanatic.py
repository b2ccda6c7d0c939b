"""The fanatic strikes at dawn (step 9): a random other player leaves the game — once a night
or once a game (option `fanatic_uses`)."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import ActionId, PlayerId, RoleId
from core.engine.messages import N_, NC_
from core.engine.refusals import Refused
from core.engine.role_state import Slot
from core.engine.ruleset import ActionSpec, RoleSpec
from core.engine.state import Player

from ..hooks import ACTION_CHECKS, REVERSES, define_role, duty, for_role
from ..night import NIGHT, NightStep, subs_for
from ..removal import strike
from ..vocabulary import NIGHT as WHOLE_NIGHT
from ..vocabulary import PONIES, Cause, Stage

FANATIC = ActionSpec(ActionId("fanatic"), WHOLE_NIGHT, targets=0)
duty(Stage.DAWN, FANATIC)

ROLE = define_role(
    RoleSpec(RoleId("fanatic"), PONIES, (FANATIC,)),
    name=N_("Fanatic"),
    role_was=NC_("role was", "the Fanatic"),
    card=N_("You are the Fanatic. Each night you may strike: a random other player leaves the "
            "game."),
    about=N_("The Fanatic may strike at night: a random other player leaves the game."),
    actions={"fanatic": N_("Strike")},
)
# he has struck (counts only with the option `fanatic_uses` = "game")
FANATIC_USED: Slot[bool] = Slot("fanatic_used", False)


def strikes_once_a_game(game: Game) -> bool:
    return game.state.options.get("fanatic_uses") == "game"


@ACTION_CHECKS.at("fanatic")
def check_fanatic(game: Game, p: Player, targets: tuple[PlayerId, ...],
                  _: str | None) -> Refused | None:
    if strikes_once_a_game(game) and FANATIC_USED.get(p):
        return Refused(N_("You have already struck in this game."))
    return None


@NIGHT.at(NightStep.FANATIC)
@for_role("fanatic")
def fanatic_strikes(game: Game) -> None:
    for sub in subs_for(game, FANATIC.id):
        fanatic = game.state.players[sub.actor]
        FANATIC_USED.set(fanatic, True)
        pool = [p for p in game.state.living() if p.pid != fanatic.pid]
        if pool:
            strike(game, game.rng.choice(pool), Cause.FANATIC, fanatic.pid, hold=True)


@REVERSES.at("fanatic")
def may_still_strike(game: Game, p: Player) -> bool:
    return not (strikes_once_a_game(game) and FANATIC_USED.get(p))
