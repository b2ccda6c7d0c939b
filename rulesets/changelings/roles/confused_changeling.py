"""The confused changeling (CH-CONF) is told "pony" and plays as one until he awakens: checked
by the queen, exchanged or abducted, he becomes a changeling. Checked by the researcher first,
he is turned for good: the team's plan fails that night, and if the queen checks him as well,
or the team tries to abduct him, he flees."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import PlayerId, RoleId
from core.engine.messages import N_, NC_, player, side, to_player
from core.engine.role_state import Slot
from core.engine.ruleset import RoleSpec
from core.engine.state import Player

from ..hooks import ABDUCTED, CHECKED, EXCHANGED, SHOWN_AS, define_role
from ..standing import is_mixed_pair, join_team, partner_of
from ..state import changelings_state
from ..vocabulary import CHANGELINGS, PONIES, Cause


@event_kind("awakened")
@dataclass(frozen=True, slots=True)
class Awakened(Event):
    """The confused changeling learned what he is."""

    player: PlayerId


@event_kind("turned")
@dataclass(frozen=True, slots=True)
class Turned(Event):
    """The confused changeling's target turned."""

    player: PlayerId

ROLE = define_role(
    RoleSpec(RoleId("confused_changeling"), PONIES),
    name=N_("Confused Changeling"),
    role_was=NC_("role was", "a confused changeling"),
    card=N_("You are a pony. You have no power at night; by day you vote to banish the "
            "changelings hiding among you."),
    about=N_("The confused changeling is told it is a pony and plays as one, until the Queen's "
             "check, an exchange or an abduction wakes it up as a changeling."),
)
SHOWN_AS[RoleId("confused_changeling")] = RoleId("pony")
# the researcher checked him first: he stays a pony for good
TURNED: Slot[bool] = Slot("turned", False)


def awaken(game: Game, p: Player) -> None:
    """He becomes a changeling; in a pair made mixed by it he is not told to play with the
    changelings (CH-LOVE [revised]): his goal as a lover follows from `join_team`."""
    p.role = RoleId("changeling")
    game.record(Awakened(player=p.pid))
    partner = partner_of(game, p.pid)
    if partner is not None and is_mixed_pair(game):
        game.tell(to_player(p.pid), N_("You wake up: you were a changeling all along! The hive "
                                       "welcomes you, but your heart still belongs to "
                                       "{partner}."), partner=player(partner))
    else:
        game.tell(to_player(p.pid), N_("You wake up: you were a changeling all along! You now "
                                       "play with the changelings."), side=side(CHANGELINGS))
    join_team(game, p)


@CHECKED.at("confused_changeling")
def checked(game: Game, target: Player, by_researcher: bool) -> None:
    """The researcher turns him, the queen awakens him, both in one night: he flees."""
    night = changelings_state(game).night
    if target.pid in night.turned_now:
        if not by_researcher:
            game.remove(target, Cause.FLED)
        return
    if TURNED.get(target):
        return
    if by_researcher:
        TURNED.set(target, True)
        night.turned_now.add(target.pid)
        night.team_fails = True
        game.record(Turned(player=target.pid))
    else:
        awaken(game, target)


@EXCHANGED.at("confused_changeling")
@ABDUCTED.at("confused_changeling")
def awakens_unless_turned(game: Game, p: Player) -> bool:
    if TURNED.get(p):
        return False
    awaken(game, p)
    return True
