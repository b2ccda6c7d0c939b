"""AL-END: who has won, with the loners as co-winners."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.messages import GROUP
from core.engine.state import Player

from . import flavour
from .common import CRIMSON, GREED, HOMUNCULI, ISHVALAN, TOWN, state_of
from .hooks import ROLES


def winners(game: Game) -> list[str] | None:
    """The winning sides (co-winners included), [] for a draw, None while the game goes on."""
    living: list[Player] = []
    sides: list[str] = []  # theirs (`side_of`, written out: one pass at every end check)
    for p in game.state.players.values():
        if p.alive:
            living.append(p)
            sides.append(ROLES[p.role].spec.side)
    if not living:
        return []
    ishvalan = living[sides.index(ISHVALAN)] if ISHVALAN in sides else None  # the first
    main: list[str] | None = None
    if ishvalan is not None:
        others = [s for p, s in zip(living, sides, strict=True) if p is not ishvalan]
        if not others or (len(others) == 1 and (others[0] in (HOMUNCULI, TOWN) or (
                others[0] in (CRIMSON, GREED) and state_of(game).stone.holder == ishvalan.pid))):
            main = [ISHVALAN]
    else:
        homunculi = sides.count(HOMUNCULI)  # every homunculus but greed is hostile (rules §1)
        if not homunculi and TOWN in sides:
            main = [TOWN]
        elif homunculi and homunculi >= len(living) - homunculi:
            main = [HOMUNCULI]
        elif set(sides) <= {CRIMSON, GREED}:
            main = []
    if main is None:
        return None
    if CRIMSON in sides and ishvalan is None and CRIMSON not in main:
        main.append(CRIMSON)
    if GREED in sides and GREED not in main:
        main.append(GREED)
    return main


def check_end(game: Game) -> bool:
    """End the game if a side has won; publish the result. Every player's role and fate,
    the links, the successions and the Stone's holders follow in the same message, told by
    the story of the game (core/story/summary.py, in this game's words: story.py)."""
    result = winners(game)
    if result is None:
        return False
    if not result:
        game.narrate(GROUP, flavour.DRAW)
    elif result[0] not in flavour.WON or result[0] in (CRIMSON, GREED):
        game.narrate(GROUP, flavour.LONERS_WON)
    for won in result:
        game.narrate(GROUP, flavour.WON[won])
    game.end(result)
    return True
