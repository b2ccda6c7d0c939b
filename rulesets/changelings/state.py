"""The pony game's own part of the game state (per-player counters live on the players)."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.engine.game import Game


@dataclass(slots=True)
class Night:
    """What one night has fixed so far; reset when the next night falls."""

    number: int = 0
    shielded: set[str] = field(default_factory=set)
    team_fails: bool = False  # a researcher's check turned the confused changeling (CH-CONF)
    turned_now: set[str] = field(default_factory=set)
    abduction: str | None = None  # the pending abduction's target (CH-ABDUCT)
    abduction_text: str | None = None
    foresight: dict[str, str | None] = field(default_factory=dict)
    chase_owed: str | None = None  # the abducted drama queen who may chase at step 8
    held: list[tuple[str, str, str]] = field(default_factory=list)  # (lucky, cause, actor)
    gone: list[tuple[str, str]] = field(default_factory=list)  # removals for the morning post
    released: list[str] = field(default_factory=list)  # derpy released voiceless
    new_mayor: str | None = None  # took office tonight: announced after the night's losses


@dataclass(slots=True)
class ChangelingsState:
    lovers: tuple[str, str] | None = None
    lovers_chosen: bool = False  # night 1's pairing happened (or came from the setup)
    successor: str | None = None  # named by the current mayor
    tiebreak_pick: str | None = None  # named by the mayor before the vote closes
    exchange_used: bool = False
    letter: tuple[str, int, str | None] | None = None  # target, weight, text for the next day
    night: Night = field(default_factory=Night)
    timeline: list[tuple[str, int, str, str]] = field(default_factory=list)  # kind, n, who, what


def changelings_state(game: Game) -> ChangelingsState:
    """The pony game's part of a game's state."""
    state: ChangelingsState = game.state.rs
    return state
