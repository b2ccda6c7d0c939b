"""The night's order as data: each rule set names its steps in an `IntEnum` (the value is the
step's place in the order, its comment says what the step sets and uses), role modules attach
handlers to the steps they act in, and `NightOrder.walk` runs them — one generic loop instead
of a hand-written call sequence per rule set. A handler runs once per step; handlers sharing a
step run by the place each was given where it is attached (`@NIGHT.at(Step.X, place=1)`),
never by the order their modules happen to be imported in (a role from a package of its own
joins a step without knowing those modules).

Handlers take the night's context: whatever the rule set's night works on (the game itself, or
a record of the night being resolved), handed to `walk` rather than kept in a global."""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Generic, TypeVar

Step = TypeVar("Step", bound=IntEnum)
Ctx = TypeVar("Ctx")


class NightOrder(Generic[Step, Ctx]):
    """The handlers attached to each step of one rule set's night."""

    def __init__(self, steps: type[Step]) -> None:
        self.steps = steps
        self._places: dict[Step, dict[int, Callable[[Ctx], None]]] = {step: {} for step in steps}
        self._handlers: dict[Step, list[Callable[[Ctx], None]]] = {step: [] for step in steps}
        # what `walk` runs for a range of steps, in order: worked out once (every night walks)
        self._plans: dict[tuple[Step, Step], tuple[Callable[[Ctx], None], ...]] = {}

    def at(self, step: Step,
           place: int = 0) -> Callable[[Callable[[Ctx], None]], Callable[[Ctx], None]]:
        """Decorator: run this handler at `step` (a role module's `@NIGHT.at(Step.CHECKS)`), in
        `place` among the step's handlers (lowest first). Two handlers in one place of a step
        are refused: their order would be an accident of imports."""

        def attach(handler: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
            taken = self._places[step]
            if place in taken:
                raise ValueError(f"{step.name}: place {place} is {taken[place].__qualname__}'s")
            taken[place] = handler
            self._handlers[step] = [taken[p] for p in sorted(taken)]
            self._plans.clear()
            return handler

        return attach

    def walk(self, ctx: Ctx, first: Step, last: Step) -> None:
        """Run the steps from `first` to `last` (both included), in order."""
        for handler in self._plans.get((first, last)) or self.plan(first, last):
            handler(ctx)

    def plan(self, first: Step, last: Step) -> tuple[Callable[[Ctx], None], ...]:
        """What `walk` runs for these steps, in order: worked out once, and the same tuple
        until a handler is attached (a rule set may keep what it derives from it)."""
        plan = self._plans.get((first, last))
        if plan is None:
            plan = self._plans[first, last] = tuple(
                handler for step in self.steps if first <= step <= last
                for handler in self._handlers[step])
        return plan

    def handlers(self, step: Step) -> tuple[Callable[[Ctx], None], ...]:
        """What runs at `step` (for tests and for the rule set's own documentation)."""
        return tuple(self._handlers[step])
