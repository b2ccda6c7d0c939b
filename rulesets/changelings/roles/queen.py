"""The queen of the changelings: a member of the team who also checks a player each dusk, after
the team's step (step 5); her check awakens the confused changeling (CH-CONF)."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import RoleId
from core.engine.messages import N_, NC_
from core.engine.ruleset import RoleSpec

from ..hooks import define_role, for_role
from ..night import NIGHT, NightStep
from ..team import ACTIONS
from ..vocabulary import CHANGELINGS
from .researcher import CHECK, check_step

ROLE = define_role(
    RoleSpec(RoleId("queen"), CHANGELINGS, (*ACTIONS, CHECK)),
    name=N_("Queen"),
    role_was=NC_("role was", "the Queen"),
    card=N_("You are the Queen of the changelings. Besides abducting with your team, you check "
            "one player each night and learn their role."),
    about=N_("The Queen of the changelings abducts with her team and also checks one player "
             "each night, learning their role."),
)


@NIGHT.at(NightStep.QUEEN)
@for_role("queen")
def queen_checks(game: Game) -> None:
    check_step(game, ROLE.id)
