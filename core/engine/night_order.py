"""The night's order as data: each rule set names its steps in an `IntEnum` (the value is the
step's place in the order, its comment says what the step sets and uses), role modules attach
handlers to the steps they act in, and `NightOrder.walk` runs them — one generic loop instead
of a hand-written call sequence per rule set. A handler runs once per step, in the order the
handlers were attached (a rule set attaches them in the order its role modules are imported,
so that order is part of the rules and stays fixed).

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
        self._handlers: dict[Step, list[Callable[[Ctx], None]]] = {step: [] for step in steps}
        # what `walk` runs for a range of steps, in order: worked out once (every night walks)
        self._plans: dict[tuple[Step, Step], tuple[Callable[[Ctx], None], ...]] = {}

    def at(self, step: Step) -> Callable[[Callable[[Ctx], None]], Callable[[Ctx], None]]:
        """Decorator: run this handler at `step` (a role module's `@NIGHT.at(Step.CHECKS)`)."""

        def attach(handler: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
            self._handlers[step].append(handler)
            self._plans.clear()
            return handler

        return attach

    def walk(self, ctx: Ctx, first: Step, last: Step) -> None:
        """Run the steps from `first` to `last` (both included), in order."""
        plan = self._plans.get((first, last))
        if plan is None:
            plan = self._plans[first, last] = tuple(
                handler for step in self.steps if first <= step <= last
                for handler in self._handlers[step])
        for handler in plan:
            handler(ctx)

    def handlers(self, step: Step) -> tuple[Callable[[Ctx], None], ...]:
        """What runs at `step` (for tests and for the rule set's own documentation)."""
        return tuple(self._handlers[step])
