"""The homunculus game's own part of the game state."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.engine.ids import PlayerId


@dataclass(slots=True)
class Stone:
    """The Philosopher's Stone (AL-STONE)."""

    threshold: int = 0  # k: it appears when the phase of the k-th removal ends
    holder: PlayerId | None = None
    appeared: bool = False
    finished: bool = False
    finished_told: PlayerId | None = None  # the holder who has been told it is finished
    removals_at_appearance: int = 0
    used: dict[PlayerId, tuple[str, int]] = field(default_factory=dict)  # holder -> (action, night)
    pass_to: PlayerId | None = None  # who removed the holder at night (gets it if alive at dawn)
    # a backfired heal's (target, holder): the target dies at step 10 of the next night
    poison: list[tuple[PlayerId, PlayerId]] = field(default_factory=list)


@dataclass(slots=True)
class AlchemistsState:
    original_father: PlayerId | None = None
    original_xing: PlayerId | None = None
    stone: Stone = field(default_factory=Stone)
    # for the coming/current day
    links: list[tuple[PlayerId, PlayerId]] = field(default_factory=list)
    dodging: set[PlayerId] = field(default_factory=set)
    vote_log: list[tuple[str, PlayerId | None]] = field(default_factory=list)  # the day's votes
    take_owed_next_day: PlayerId | None = None  # pride died at night without a standing `take`
    night_dead: list[tuple[PlayerId, str]] = field(default_factory=list)
    changed_votes: list[PlayerId] = field(default_factory=list)  # vote_minus/vote_plus targets
    voided_votes: list[PlayerId] = field(default_factory=list)  # holders whose backfire voids it
    absorbed_by: dict[PlayerId, PlayerId] = field(default_factory=dict)  # absorbed -> absorber
    night_start_removals: int = 0  # removals counted when the night began (backfire chance)
    remover: PlayerId | None = None  # whose action is removing a player right now (Stone passing)
    misses: dict[PlayerId, int] = field(default_factory=dict)
