"""The pony game's own part of the game state; per-player facts live on the players, each
declared by its role's module as a `Slot` (those of no single role here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from core.engine.game import Game
from core.engine.ids import PlayerId, RoleId
from core.engine.role_state import Slot


@dataclass(slots=True)
class Night:
    """What one night has fixed so far; reset when the next night falls."""

    number: int = 0
    shielded: set[PlayerId] = field(default_factory=set)
    team_fails: bool = False  # a researcher's check turned the confused changeling (CH-CONF)
    turned_now: set[PlayerId] = field(default_factory=set)
    abduction: PlayerId | None = None  # the pending abduction's target (CH-ABDUCT)
    abduction_text: str | None = None
    foresight: dict[PlayerId, str | None] = field(default_factory=dict)
    chase_owed: PlayerId | None = None  # the abducted drama queen who may chase at step 8
    held: list[tuple[PlayerId, str, PlayerId]] = field(default_factory=list)  # lucky, cause, by
    gone: list[tuple[PlayerId, str]] = field(default_factory=list)  # removals for the morning post
    released: list[PlayerId] = field(default_factory=list)  # derpy released voiceless
    new_mayor: PlayerId | None = None  # took office tonight: announced after the night's losses
    dawn: str | None = None  # the quiet morning told (the day's opener does not echo it)


class TieBroken(StrEnum):
    """Who decided a tied banishment, while it is being told (the vote itself did not)."""

    MAYOR = "mayor"  # the mayor's pick (named before the vote closed, or owed after it)
    CHANCE = "chance"  # fate: no mayor could, or the owed pick came to nothing


@dataclass(slots=True)
class ChangelingsState:
    lovers: tuple[PlayerId, PlayerId] | None = None
    lovers_chosen: bool = False  # night 1's pairing happened (or came from the setup)
    successor: PlayerId | None = None  # named by the current mayor
    tiebreak_pick: PlayerId | None = None  # named by the mayor before the vote closes
    tie_broken: TieBroken | None = None  # set only while a tie's banishment is told
    exchange_used: bool = False
    letter: tuple[PlayerId, int, str | None] | None = None  # target, weight, text for the next day
    night: Night = field(default_factory=Night)


def changelings_state(game: Game) -> ChangelingsState:
    """The pony game's part of a game's state."""
    state: ChangelingsState = game.state.rs
    return state


# the role he held when the team exchanged him (CH-EXCH): a love poison exchanged in the
# first night still counts as dealt, her lapsed pair not replaced by a random one
EXCHANGED_FROM: Slot[RoleId | None] = Slot("exchanged_from", None)
# the kind of pony a player shown as a pony is told at the start (kept, read by no rule)
PONY_KIND: Slot[str | None] = Slot("kind", None)
