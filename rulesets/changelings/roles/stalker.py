"""The stalker knows from the start who the confused changeling is (dealt only with him)."""

from __future__ import annotations

from collections.abc import Sequence

from core.engine.game import Game
from core.engine.ids import RoleId
from core.engine.messages import N_, NC_, player, to_player
from core.engine.ruleset import RoleSpec, SetupError
from core.engine.state import Player

from ..hooks import SETUP_CHECKS, STARTED, define_role
from ..vocabulary import PONIES

ROLE = define_role(
    RoleSpec(RoleId("stalker"), PONIES),
    name=N_("Stalker"),
    role_was=NC_("role was", "the Stalker"),
    card=N_("You are the Stalker. You know who the confused changeling is."),
    about=N_("The Stalker knows who the confused changeling is."),
)


@SETUP_CHECKS.at("stalker")
def dealt_with_the_confused(roles: Sequence[RoleId]) -> None:
    if "confused_changeling" not in roles:
        raise SetupError("The stalker is dealt only together with the confused changeling.")


@STARTED.at("stalker")
def learn_the_confused(game: Game, p: Player) -> None:
    for other in game.state.players.values():
        if other.role == "confused_changeling":
            game.learn(p.pid, other.pid, other.role)
            game.tell(to_player(p.pid), N_("{name} is the confused changeling."),
                      name=player(other.pid))
