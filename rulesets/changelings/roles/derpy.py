"""Derpy's first banishment or abduction fails (CH-DERPY): he stays, but loses his voice (he
cannot vote and is not counted) unless he is the mayor."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import PlayerId, RoleId
from core.engine.messages import GROUP, N_, NC_, Ref, RefKind, player, role
from core.engine.role_state import Slot
from core.engine.ruleset import RoleSpec
from core.engine.state import Player

from ..hooks import ABDUCTED, BANISHED, MORNING_NEWS, define_role, for_role
from ..standing import passive_works
from ..state import changelings_state
from ..vocabulary import PONIES, Status


@event_kind("escaped")
@dataclass(frozen=True, slots=True)
class Escaped(Event):
    """Derpy escaped (her role is shown to the group)."""

    player: PlayerId


@event_kind("released")
@dataclass(frozen=True, slots=True)
class Released(Event):
    """Derpy was let go by the changelings."""

    player: PlayerId

ROLE = define_role(
    RoleSpec(RoleId("derpy"), PONIES),
    name=N_("Derpy"),
    role_was=NC_("role was", "Derpy"),
    card=N_("You are Derpy. The first time you would be banished or abducted you get away, "
            "but you lose your voice."),
    about=N_("The first time Derpy would be banished or abducted, Derpy gets away, but loses "
             "the right to vote."),
)
# the one escape is used
ESCAPED: Slot[bool] = Slot("escaped", False)


def escapes(p: Player) -> bool:
    """The escape works once per game [decision], and not while inactive (CH-INACT)."""
    if not passive_works(p) or ESCAPED.get(p):
        return False
    ESCAPED.set(p, True)
    if Status.MAYOR.value not in p.statuses:
        p.statuses.add(Status.VOICELESS.value)
    return True


@BANISHED.at("derpy")
def escape_banishment(game: Game, p: Player) -> bool:
    if not escapes(p):
        return False
    game.record(Escaped(player=p.pid))
    game.tell(GROUP, N_("{name} trips over their own hooves and escapes the banishment! "
                        "{name} is revealed as {role} and has lost their voice."),
              name=player(p.pid), role=Ref(RefKind.ROLE_WAS, "derpy"), revealed=role("derpy"))
    return True


@ABDUCTED.at("derpy")
def escape_abduction(game: Game, p: Player) -> bool:
    if not escapes(p):
        return False
    changelings_state(game).night.released.append(p.pid)
    game.record(Released(player=p.pid))
    return True


@MORNING_NEWS.add
@for_role("derpy")
def tell_the_released(game: Game) -> bool:
    released = changelings_state(game).night.released
    for pid in released:
        game.tell(GROUP, N_("The changelings dragged {name} away in the night, but let them go "
                            "again. {name} has lost their voice."), name=player(pid))
    return bool(released)
