"""The Xing Bodyguard, town (rules §5): shares the team chat with xing; when xing leaves the
game by any cause but absorption, the bodyguard becomes xing (role id `xing`)."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.ids import RoleId
from core.engine.messages import N_, NC_, Ref, RefKind, player, to_player
from core.engine.role_state import Slot
from core.engine.ruleset import RoleSpec
from core.engine.state import Player
from rulesets.alchemists.common import Cause, Succession

from ..common import TOWN
from ..hooks import AT_START, ON_REMOVED, Role, Team, register, register_team

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and this is asked at every removal
_ABSORBED = Cause.ABSORBED

GUARD = register_team(Team(
    "guard",
    title=N_("The Xing Alchemist and his bodyguard"),
    about=N_("Only the Xing Alchemist and his bodyguard can read this room. Guard your "
             "secrets well."),
))
ROLE = register(Role(
    RoleSpec(RoleId("bodyguard"), TOWN),
    name=N_("Xing Bodyguard"),
    role_was=NC_("role was", "the Xing Bodyguard"),
    card=N_("You are the Xing Bodyguard. If the Xing Alchemist falls, you take his place."),
    about=N_("Takes the Xing Alchemist's place if he falls."),
    setup="optional",
    team=GUARD.key,
))
# he took the fallen xing's place (his role is `xing` since)
WAS_BODYGUARD: Slot[bool] = Slot("was_bodyguard", False)


@AT_START.append
def introductions(game: Game) -> None:
    """Rules §2: xing and the bodyguard know each other (recorded as learned)."""
    players = game.state.players.values()
    xing = next((p for p in players if p.role == "xing"), None)
    guard = next((p for p in players if p.role == "bodyguard"), None)
    if xing is not None and guard is not None:
        game.learn(xing.pid, guard.pid, guard.role)
        game.learn(guard.pid, xing.pid, xing.role)
        game.tell(to_player(xing.pid), N_("{name} is your bodyguard."), name=player(guard.pid))
        game.tell(to_player(guard.pid), N_("{name} is {role} you guard."),
                  name=player(xing.pid), role=Ref(RefKind.ROLE_WAS, xing.role))


@ON_REMOVED.append
def steps_up(game: Game, p: Player, cause: str) -> None:
    if p.role != "xing" or cause == _ABSORBED:
        return
    for guard in game.state.players.values():
        if guard.alive and guard.role == "bodyguard":
            guard.role = RoleId("xing")
            WAS_BODYGUARD.set(guard, True)
            game.record(Succession(role="xing", player=guard.pid))
            game.tell(to_player(guard.pid), N_("The Xing Alchemist has fallen. You take his "
                                               "place: each night you may check one player."))
            return
