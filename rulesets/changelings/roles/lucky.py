"""Lucky (CH-LUCKY): the first time he would be abducted (step 6), pranked, chased or struck by
the fanatic (step 10 at night, at once by day), someone else drawn at random suffers it."""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.events import Event, event_kind
from core.engine.game import Game
from core.engine.ids import PlayerId, RoleId
from core.engine.messages import N_, NC_, to_player
from core.engine.role_state import Slot
from core.engine.ruleset import RoleSpec
from core.engine.state import Player

from ..hooks import STRUCK, define_role, for_role
from ..night import NIGHT, NightStep
from ..standing import partner_of, passive_works, team
from ..state import changelings_state
from ..vocabulary import PONIES, Cause


@event_kind("luck")
@dataclass(frozen=True, slots=True)
class Luck(Event):
    """Lucky's luck struck somebody else."""

    lucky: PlayerId
    victim: PlayerId

ROLE = define_role(
    RoleSpec(RoleId("lucky"), PONIES),
    name=N_("Lucky"),
    role_was=NC_("role was", "Lucky"),
    card=N_("You are Lucky. The first time you would be abducted, pranked, chased or struck by "
            "the fanatic, someone else suffers it instead."),
    about=N_("The first time Lucky would be abducted, pranked, chased or struck by the "
             "fanatic, somepony else suffers it instead."),
)
# his luck has struck somebody else (it works once)
LUCK_SPENT: Slot[bool] = Slot("luck_spent", False)


def has_luck(p: Player) -> bool:
    return p.role == "lucky" and passive_works(p) and not LUCK_SPENT.get(p)


def redirect_luck(game: Game, lucky: Player, why: str, actor: PlayerId,
                  extra_exclude: frozenset[str] = frozenset()) -> Player | None:
    """Draw the player who suffers lucky's fate; None (and luck kept) if the pool is empty."""
    pool = [p for p in game.state.players.values()
            if p.alive and p.pid not in (lucky.pid, actor) and p.pid not in extra_exclude]
    if not pool:
        return None
    victim = game.rng.choice(pool)
    LUCK_SPENT.set(lucky, True)
    game.record(Luck(lucky=lucky.pid, victim=victim.pid))
    game.tell(to_player(lucky.pid), N_("Luck is on your side: someone else suffered your fate."))
    if why != Cause.ABDUCTED:
        game.remove(victim, why)
    return victim


@STRUCK.at("lucky")
def luck_against_strikes(game: Game, target: Player, why: str, actor: PlayerId, hold: bool) -> bool:
    if not has_luck(target):
        return False
    if hold:
        changelings_state(game).night.held.append((target.pid, why, actor))
    else:
        redirect_luck(game, target, why, actor)
    return True


@NIGHT.at(NightStep.LUCKY_VS_CHANGELINGS)
@for_role("lucky")
def luck_against_abduction(game: Game) -> None:
    night = changelings_state(game).night
    if not night.abduction:
        return
    target = game.state.players[night.abduction]
    if not has_luck(target):
        return
    lovers_of_changelings: set[PlayerId] = set()
    for member in team(game):
        partner = partner_of(game, member.pid)
        if partner:
            lovers_of_changelings.add(partner)
    exclude = frozenset({p.pid for p in team(game)} | night.shielded | lovers_of_changelings)
    victim = redirect_luck(game, target, Cause.ABDUCTED, target.pid, exclude)
    night.abduction = victim.pid if victim else None


@NIGHT.at(NightStep.LUCKY_OTHER)
@for_role("lucky")
def luck_against_the_rest(game: Game) -> None:
    for lucky_id, why, actor in changelings_state(game).night.held:
        lucky = game.state.players[lucky_id]
        if not lucky.alive:
            continue
        if LUCK_SPENT.get(lucky):
            game.remove(lucky, why)
        else:
            redirect_luck(game, lucky, why, actor)
