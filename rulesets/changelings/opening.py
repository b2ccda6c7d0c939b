"""The start post (rules §2 [revised]): the group learns which special roles are in play and
how many changelings hide among them, never who holds what."""

from __future__ import annotations

from core.engine.game import Game
from core.engine.messages import GROUP, role, side

from .hooks import CHANGELING_ROLES, ROLES
from .vocabulary import CHANGELINGS


def announce(game: Game) -> None:
    """Each count has its own sentence, so that each agrees with its number (ru: 1, 2, 5)."""
    players = game.state.players.values()
    dealt = [p.role for p in players]  # (one pass; the counts below read the list)
    specials = sorted({r for r in dealt if ROLES[r].special}, key=list(ROLES).index)
    if specials:
        game.tell_n(GROUP, "A new game of Changelings begins with {count} player!",
                    "A new game of Changelings begins with {count:w} players!", len(players))
        game.tell_n(GROUP, "One special role is in play: {roles}.",
                    "{count:W} special roles are in play: {roles}.", len(specials),
                    roles=tuple(role(r) for r in specials))
    else:  # an empty list would print as a bare dot
        game.tell_n(GROUP, "A new game of Changelings begins with {count} player, and no "
                    "special roles are in play.", "A new game of Changelings begins with "
                    "{count:w} players, and no special roles are in play.", len(players))
    # the queen and the liar are among the changelings, the confused one is not; `side`
    # carries the side counted as a plain fact (for `told`), which the sentence says in words
    hiding = sum(map(CHANGELING_ROLES.__contains__, dealt))  # `is_changeling`, of each
    game.tell_n(GROUP, "Careful, everypony: {count:w} changeling is hiding among you!",
                "Careful, everypony: {count:w} changelings are hiding among you!", hiding,
                side=side(CHANGELINGS))
