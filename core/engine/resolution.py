"""Generic night resolution: ordered intents, blocking, immunity, mirroring and redirection.

A rule set turns the night's submissions into `Intent`s placed at positions of its named night
order, then walks them in order. `NightBoard` answers the two questions every step asks:
does this intent still run (AL-SEQ-style lapses, blocks that landed earlier, a domed sender),
and whom does it reach (immunity, a one-time mirror, a redirection of everything a sender
sends). The rule set decides what a reaching intent does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .ids import ActionId, PlayerId


@dataclass(slots=True)
class Intent:
    """One action as it will resolve: who, what, on whom, and where in the night order.

    `pos` orders intents (step, place within the step, tie-breaker); `reaches` says whether the
    intent counts as reaching its targets (for mirrors). A rule set that needs more of an
    intent subclasses it with typed fields of its own (the alchemists' `Rite`: a Stone's power,
    the homunculi's kill, the name a copied check was sent under).
    """

    actor: PlayerId
    kind: ActionId  # the ability that resolves (a Stone's power by its own name: "kill")
    targets: tuple[PlayerId, ...]
    pos: tuple[int, ...]
    reaches: bool = True
    aim_from: int = 0  # a redirection replaces the targets from this index on


@dataclass(slots=True)
class NightBoard:
    """What the night has settled so far about blocks, immunity, mirrors and redirections."""

    left: set[PlayerId] = field(default_factory=set)  # players who left during this night
    blocked_at: dict[PlayerId, tuple[int, ...]] = field(default_factory=dict)
    immune: set[PlayerId] = field(default_factory=set)  # "nothing touches him" (a dome)
    silenced: set[PlayerId] = field(default_factory=set)  # "everything he sends does nothing"
    protected: set[PlayerId] = field(default_factory=set)  # healed: survives kills of this night
    mirrors: dict[PlayerId, PlayerId] = field(default_factory=dict)  # target -> mirror's owner
    redirect: dict[PlayerId, PlayerId] = field(default_factory=dict)  # sender -> forced target

    def runs(self, intent: Intent) -> bool:
        """Whether the intent still happens: its sender is in the game, was not blocked by a
        block that resolved before it, and is not silenced."""
        actor = intent.actor
        if actor in self.left or actor in self.silenced:
            return False
        blocked = self.blocked_at.get(actor)
        return blocked is None or blocked >= intent.pos

    def block(self, target: PlayerId, pos: tuple[int, ...]) -> None:
        """Stop the target's intents that resolve after `pos`."""
        if target not in self.blocked_at or pos < self.blocked_at[target]:
            self.blocked_at[target] = pos

    def aim(self, intent: Intent) -> tuple[PlayerId, ...]:
        """The targets after a forced redirection of everything the sender sends."""
        forced = self.redirect.get(intent.actor)
        if forced is None:
            return intent.targets
        keep = intent.targets[: intent.aim_from]
        return keep + tuple(forced for _ in intent.targets[intent.aim_from:])

    def reach(self, intent: Intent, target: PlayerId) -> PlayerId | None:
        """Whom the intent really reaches at `target`: None if the target is immune, its sender
        if a mirror reflects it (once), else the target."""
        if target in self.immune:
            return None
        owner = self.mirrors.get(target)
        if owner is not None and intent.reaches and intent.actor != owner:
            del self.mirrors[target]
            return intent.actor
        return target
