"""The night's order as data: each rule set names its steps in an `IntEnum` (the value is the
step's place in the order, its comment says what the step sets and uses), role modules attach
handlers to the steps they act in, and `NightOrder.walk` runs them — one generic loop instead
of a hand-written call sequence per rule set. A handler runs once per step; handlers sharing a
step run by the place each was given where it is attached (`@NIGHT.at(Step.X, place=1)`),
never by the order their modules happen to be imported in (a role from a package of its own
joins a step without knowing those modules)."""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from .game import Game

Step = TypeVar("Step", bound=IntEnum)
Handler = Callable[["Game"], None]


class NightOrder(Generic[Step]):
    """The handlers attached to each step of one rule set's night."""

    def __init__(self, steps: type[Step]) -> None:
        self.steps = steps
        self._places: dict[Step, dict[int, Handler]] = {step: {} for step in steps}
        self._handlers: dict[Step, list[Handler]] = {step: [] for step in steps}  # by place

    def at(self, step: Step, place: int = 0) -> Callable[[Handler], Handler]:
        """Decorator: run this handler at `step` (a role module's `@NIGHT.at(Step.CHECKS)`), in
        `place` among the step's handlers (lowest first). Two handlers in one place of a step
        are refused: their order would be an accident of imports."""

        def attach(handler: Handler) -> Handler:
            taken = self._places[step]
            if place in taken:
                raise ValueError(f"{step.name}: place {place} is {taken[place].__qualname__}'s")
            taken[place] = handler
            self._handlers[step] = [taken[p] for p in sorted(taken)]
            return handler

        return attach

    def walk(self, game: Game, first: Step, last: Step) -> None:
        """Run the steps from `first` to `last` (both included), in order."""
        for step in self.steps:
            if first <= step <= last:
                for handler in self._handlers[step]:
                    handler(game)

    def handlers(self, step: Step) -> tuple[Handler, ...]:
        """What runs at `step` (for tests and for the rule set's own documentation)."""
        return tuple(self._handlers[step])
