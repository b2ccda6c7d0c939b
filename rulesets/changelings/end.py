"""CH-END: who has won, checked at the points the rules name, in the rules' order."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.messages import GROUP, N_
from core.engine.phase import PhaseKind

from . import flavour
from .hooks import CHANGELING_ROLES, REVERSES
from .night import in_play
from .standing import is_changeling, is_counted
from .state import ChangelingsState
from .vocabulary import CHANGELINGS, LOVERS, PONIES


def winners(game: Game) -> list[str] | None:
    """The winning sides, [] for a draw, None while the game goes on.

    Asked after every window, so one pass over the players gathers all the rules look at.
    """
    state: ChangelingsState = game.state.rs  # `changelings_state`, inlined
    lovers = state.lovers
    mixed: tuple[str, ...] = ()
    if lovers is not None:  # `is_mixed_pair`, written out
        players = game.state.players
        if (players[lovers[0]].role in CHANGELING_ROLES) != (
                players[lovers[1]].role in CHANGELING_ROLES):
            mixed = lovers
    anybody_left = team_left = False  # (anybody: set only for an uncounted pony)
    changelings = others = 0  # the counted ones (CH-COUNT)
    for p in game.state.players.values():
        if p.alive:
            if p.role in CHANGELING_ROLES:
                team_left = True
                if (not p.statuses or is_counted(p)) and p.pid not in mixed:
                    changelings += 1
            elif not p.statuses or is_counted(p):
                others += 1
            else:
                anybody_left = True
    if not (team_left or others or anybody_left):
        return []
    if mixed and set(game.state.living_ids()) == set(mixed):
        return [LOVERS]
    if not team_left:
        return [PONIES]
    if changelings >= others and not reversal_possible(game):
        return [CHANGELINGS]
    return None


def reversal_possible(game: Game) -> bool:
    """A counted non-changeling still holds a power that could turn the numbers."""
    for owed in in_play(game).reversal_owed:  # a loop, not any(): no generator
        if owed(game):
            return True
    for p in game.state.living():
        if not is_counted(p) or is_changeling(p):
            continue
        reverses = REVERSES.handlers.get(p.role)
        if reverses is not None and reverses(game, p):
            return True
    return False


def check_end(game: Game) -> bool:
    """End the game if a side has won; publish the result (and the host's interventions).
    Every pony's role and fate, the lovers and the mayors follow in the same message, told
    by the story of the game (core/story/summary.py, in this game's words: story.py)."""
    result = winners(game)
    if result is None:
        return False
    for won in result:
        game.narrate(GROUP, flavour.WON[won])
    if not result:
        game.narrate(GROUP, flavour.DRAW)
    for kind, number, command in game.state.host_log:
        key = (N_("Day {number}: the host used /{command}.") if kind == PhaseKind.DAY
               else N_("Night {number}: the host used /{command}."))
        game.tell(GROUP, key, number=number, command=command)
    game.end(result)
    return True
