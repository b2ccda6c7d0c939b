"""What follows when a player leaves: publication, heartbreak (CH-LOVE), the mayor's succession
(CH-MAYOR) and the banished drama queen's chase (CH-REACT)."""

from __future__ import annotations

from core.engine.game import OUT_OF_STORY, Game
from core.engine.messages import GROUP, N_, player, role, to_player
from core.engine.state import Player

from . import flavour
from .roles import HEARTBREAKING
from .standing import cs, partner_of, passive_works, random_living, take_office

# Ranks order the owed choices of a reactions window (CH-REACT).
RANK_TIEBREAK, RANK_CHASE, RANK_SUCCESSOR = 1, 2, 3
DAY_EFFECTS = frozenset({"banished", "heartbreak", "chased"})


def on_removed(game: Game, p: Player, why: str) -> None:
    state = cs(game)
    at_night = game.state.phase.kind == "night" and why not in OUT_OF_STORY
    phase = game.state.phase
    state.timeline.append((phase.kind, phase.number, p.pid, why))
    if at_night:
        state.night.gone.append((p.pid, why))
    else:
        announce_removal(game, p.pid, why)
    partner = partner_of(game, p.pid)
    if partner is not None and why in HEARTBREAKING:
        other = game.state.players[partner]
        if other.alive:
            game.remove(other, "heartbreak")
    if "mayor" in p.statuses:
        _succeed(game, p, why)
    if why == "banished" and p.role == "drama_queen" and "inactive" not in p.statuses:
        game.owe("chase", p.pid, [], RANK_CHASE)


def announce_removal(game: Game, pid: str, why: str) -> None:
    p = game.state.players[pid]
    game.narrate(GROUP, flavour.REMOVED[why], name=player(pid), role=role(p.role))


def _succeed(game: Game, old: Player, why: str) -> None:
    state = cs(game)
    old.statuses.discard("mayor")
    named = state.successor
    state.successor = None
    state.tiebreak_pick = None
    if named is not None and game.state.players[named].alive:
        take_office(game, game.state.players[named])
    elif game.state.phase.kind == "day" and why in DAY_EFFECTS:
        game.owe("successor", old.pid, [], RANK_SUCCESSOR)
    else:
        heir = random_living(game)
        if heir is not None:
            take_office(game, heir)


def strike(game: Game, target: Player, why: str, actor: str, *, hold: bool) -> None:
    """A prank, chase or fanatic hit: lucky turns it onto someone else (CH-LUCKY).

    At night the redirect waits for step 10 (`hold`); by day it happens at once.
    """
    if target.role == "lucky" and passive_works(target) and not target.counters.get("luck_spent"):
        if hold:
            cs(game).night.held.append((target.pid, why, actor))
        else:
            redirect_luck(game, target, why, actor)
        return
    game.remove(target, why)


def redirect_luck(game: Game, lucky: Player, why: str, actor: str,
                  extra_exclude: frozenset[str] = frozenset()) -> Player | None:
    """Draw the player who suffers lucky's fate; None (and luck kept) if the pool is empty."""
    pool = [p for p in game.state.players.values()
            if p.alive and p.pid not in (lucky.pid, actor) and p.pid not in extra_exclude]
    if not pool:
        return None
    victim = game.rng.choice(pool)
    lucky.counters["luck_spent"] = True
    game.event("luck", lucky=lucky.pid, victim=victim.pid)
    game.tell(to_player(lucky.pid), N_("Luck is on your side: someone else suffered your fate."))
    if why != "abducted":
        game.remove(victim, why)
    return victim
