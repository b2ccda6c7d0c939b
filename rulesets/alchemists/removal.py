"""What follows a removal: the morning list, the Stone passing on, what the roles attach to a
removal (successions, pride's `take`: `hooks.ON_REMOVED`), and the finished Stone
(AL-FINISHED).

A modkill (the host's, or AL-MISS's `missed`, told where the vote is counted) is a penalty,
not a death in the story: it triggers no reaction (no `take`; crimson explodes only when
executed), while the structural successions still happen — father's successor, the
bodyguard becoming xing, the Stone passing at random (rules §10 [revised]). A player who
leaves of his own accord (`left`, /flee) leaves the same way [decision]."""

from __future__ import annotations

from core.engine.game import OUT_OF_STORY, Game
from core.engine.messages import GROUP, N_, player
from core.engine.phase import PhaseKind
from core.engine.state import Player

from . import stone as stone_rules
from .common import Cause, state_of
from .hooks import ON_REMOVED

# read as globals: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and these are asked at every removal
_NIGHT, _MODKILL, _LEFT = PhaseKind.NIGHT, Cause.MODKILL, Cause.LEFT


def on_removed(game: Game, p: Player, cause: str) -> None:
    state = state_of(game)
    at_night = game.state.phase.kind == _NIGHT
    if at_night and cause not in OUT_OF_STORY:
        state.night_dead.append((p.pid, cause))
    elif cause == _MODKILL:
        game.tell(GROUP, N_("{name} has been removed from the game."), name=player(p.pid))
    elif cause == _LEFT:
        game.tell(GROUP, N_("{name} has left the game."), name=player(p.pid))
    elif cause == Cause.LEFT_CHAT:
        game.tell(GROUP, N_("{name} walked out of the chat and did not return. The game "
                            "goes on without {name}."), name=player(p.pid))
    elif cause == Cause.KICKED:
        game.tell(GROUP, N_("{name} has been cast out of the chat, and so out of the game."),
                  name=player(p.pid))
    if state.stone.holder == p.pid:
        stone_rules.check_finished(game)  # a holder drawn by day receives it as it now is
        stone_rules.holder_left(game, p, cause, state.remover)
    for react in ON_REMOVED:
        react(game, p, cause)
    stone_rules.check_finished(game)
