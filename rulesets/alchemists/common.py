"""Shared helpers of the homunculus game: sides, check results, the homunculi's chain of
command (AL-FATHER), links and Stone-holder facts."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.state import Player

from .roles import HOMUNCULI, LONERS, ROLES
from .state import AlchemistsState


def als(game: Game) -> AlchemistsState:
    state: AlchemistsState = game.state.rs
    return state


def side_of(p: Player) -> str:
    return ROLES[p.role].side


def check_result(p: Player) -> str:
    """What a check shows (xing's categories): homunculi, town or loner."""
    side = side_of(p)
    return "loner" if side in LONERS else side


def father(game: Game) -> Player | None:
    """The living father. There is never more than one: pride takes the role only once the
    original father is gone (AL-FATHER), so while he lives he is the answer."""
    first = game.state.players.get(als(game).original_father or "")
    if first is not None and first.alive and first.role == "father":
        return first
    for p in game.state.players.values():
        if p.alive and p.role == "father":
            return p
    return None


def homunculi(game: Game) -> list[Player]:
    return [p for p in game.state.players.values() if p.alive and side_of(p) == HOMUNCULI]


def linked_partners(game: Game, pid: str) -> set[str]:
    found: set[str] = set()
    for a, b in als(game).links:
        if a == pid:
            found.add(b)
        elif b == pid:
            found.add(a)
    return found
