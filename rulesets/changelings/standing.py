"""Who is what right now: sides (CH-CONF, CH-EXCH, mixed lovers), counting (CH-COUNT), the
changelings' team, lovers (CH-LOVE) and the mayor's office (CH-MAYOR)."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.forms import SideForm, side_form
from core.engine.game import Game
from core.engine.ids import PlayerId, RoleId
from core.engine.messages import (
    GROUP,
    N_,
    Param,
    Purpose,
    WithRole,
    player,
    role,
    side,
    to_player,
)
from core.engine.phase import PhaseKind
from core.engine.state import Player

from .hooks import CHANGELING_ROLES
from .state import ChangelingsState, changelings_state
from .vocabulary import CHANGELINGS, LOVERS, PONIES, Status
from .voice import said

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and these are asked whenever a mayor takes office and
# the team is told something (a purpose named where `**params` is passed on, for mypy)
_NIGHT, _PLAIN = PhaseKind.NIGHT, Purpose.PLAIN
_MAYOR, _LOVER = Status.MAYOR.value, Status.LOVER.value
_VOICELESS = Status.VOICELESS.value
# the counts and `mayor` ask `Status`'s values written as literals: a constant loads faster
# than a global (0.15 % of a game, callgrind)

PLAIN = RoleId("changeling")  # the plain changeling: his role needs no naming


@event_kind("lovers")
@dataclass(frozen=True, slots=True)
class Lovers(Event):
    """Two players are in love."""

    pair: tuple[PlayerId, PlayerId]


@event_kind("mayor")
@dataclass(frozen=True, slots=True)
class Mayor(Event):
    """A player leads Ponyville now."""

    player: PlayerId


def is_changeling(p: Player) -> bool:
    """An awake changeling: the team's members (the confused one only once awake)."""
    return p.role in CHANGELING_ROLES


def partner_of(game: Game, pid: PlayerId) -> PlayerId | None:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: asked at every vote
    lovers = state.lovers
    if lovers is None or pid not in lovers:
        return None
    return lovers[1] if lovers[0] == pid else lovers[0]


def is_mixed_pair(game: Game) -> bool:
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined: every end check
    lovers = state.lovers
    if lovers is None:
        return False
    players = game.state.players
    return is_changeling(players[lovers[0]]) != is_changeling(players[lovers[1]])


def side_of(game: Game, p: Player) -> str:
    if is_mixed_pair(game) and p.pid in (changelings_state(game).lovers or ()):
        return LOVERS
    return CHANGELINGS if is_changeling(p) else PONIES


def is_counted(p: Player) -> bool:
    """CH-COUNT: living, not inactive, not voiceless."""
    return p.alive and "inactive" not in p.statuses and "voiceless" not in p.statuses


def passive_works(p: Player) -> bool:
    """An inactive player's special role does nothing (CH-INACT)."""
    return p.alive and "inactive" not in p.statuses


def team(game: Game) -> list[Player]:
    """The living changelings known to the team."""
    return [p for p in game.state.players.values() if p.alive and p.role in CHANGELING_ROLES]


def tell_team(game: Game, key: str, /, **params: Param) -> None:
    for member in team(game):
        game.tell(to_player(member.pid), key, purpose=_PLAIN, **params)


def join_team(game: Game, newcomer: Player) -> None:
    """The newcomer and the team learn each other (exchange, awakening). A lover who joins
    turns his pair mixed, or a mixed pair same-side: both lovers learn their new goal."""
    fellows = [m for m in team(game) if m.pid != newcomer.pid]
    for member in fellows:
        game.learn(member.pid, newcomer.pid, newcomer.role)
        game.learn(newcomer.pid, member.pid, member.role)
        game.tell(to_player(member.pid), N_("{name} has joined the changelings."),
                  name=player(newcomer.pid))
    tell_fellows(game, newcomer, fellows)
    if partner_of(game, newcomer.pid) is not None:
        tell_lovers_goal(game)


def tell_fellows(game: Game, p: Player, fellows: list[Player]) -> None:
    """One message naming all of his fellow changelings, with a count; a fellow's role is
    named only when it is not the plain changeling (whose name says it already)."""
    if not fellows:
        return
    names = tuple(player(f.pid) if f.role == PLAIN else WithRole(player(f.pid), role(f.role))
                  for f in fellows)
    game.tell_n(to_player(p.pid), "Your fellow changeling: {names}.",
                "Your fellow changelings ({count}): {names}.", len(fellows), names=names)


def make_lovers(game: Game, a: PlayerId, b: PlayerId) -> None:
    """CH-LOVE: a mixed pair learns at once that its goal changed."""
    state = changelings_state(game)
    state.lovers = (a, b)
    state.lovers_chosen = True
    for x, y in ((a, b), (b, a)):
        game.state.players[x].statuses.add(_LOVER)
        game.tell(to_player(x), N_("You have fallen in love with {partner}. If one of you "
                                   "leaves the game, the other follows."), partner=player(y))
    game.record(Lovers(pair=(a, b)))
    if is_mixed_pair(game):
        tell_lovers_goal(game)


def tell_lovers_goal(game: Game) -> None:
    """CH-LOVE [revised]: whenever the pair becomes mixed, both lovers are told at once that
    they now win only as the last two (their side, named, is `lovers`). A mixed pair made
    same-side again (its pony exchanged, its confused changeling awakened) is told that it
    plays with the changelings again [decision]: their earlier goal must not stand."""
    lovers = changelings_state(game).lovers
    if lovers is None or not all(game.state.players[x].alive for x in lovers):
        return  # a pair broken by the host's removal has no common goal left to tell
    a, b = lovers
    if is_mixed_pair(game):
        for x, y in ((a, b), (b, a)):
            game.tell(to_player(x), N_("Love changes everything! You and {partner} play on "
                                       "different sides, so your goal has changed: from now on "
                                       "you two play {side_with}, and you win only if you are the "
                                       "last two left in the game."),
                      partner=player(y), side=side(LOVERS),
                      side_with=side_form(LOVERS, SideForm.WITH))
        return
    for x, y in ((a, b), (b, a)):  # `side`: the plain fact for `told`, as the words say it
        now = side_of(game, game.state.players[x])
        game.tell(to_player(x), N_("Now you and {partner} are both changelings, heart and hive "
                                   "as one. Your goal has changed again: you play {side_with} "
                                   "and no longer need to be the last two."),
                  partner=player(y), side=side(now),
                  side_with=side_form(now, SideForm.WITH))


def mayor(game: Game) -> Player | None:
    for p in game.state.players.values():
        if p.alive and "mayor" in p.statuses:
            return p
    return None


def take_office(game: Game, p: Player) -> None:
    """p becomes mayor; a voiceless derpy regains his voice (CH-DERPY)."""
    state = changelings_state(game)
    for other in game.state.players.values():
        other.statuses.discard(_MAYOR)
    p.statuses.add(_MAYOR)
    p.statuses.discard(_VOICELESS)
    state.successor = None
    state.tiebreak_pick = None
    game.record(Mayor(player=p.pid))
    if game.state.phase.kind == _NIGHT:  # the morning post tells it after the losses
        state.night.new_mayor = p.pid
    else:
        game.tell(GROUP, said(game, "NEW_MAYOR", "group"), name=player(p.pid))


def random_living(game: Game, exclude: set[PlayerId] | None = None) -> Player | None:
    pool = [p for p in game.state.players.values() if p.alive and p.pid not in (exclude or ())]
    return game.rng.choice(pool) if pool else None
