"""The generic night walker: steps run in the enum's order, each step's handlers in the order
they were attached, only the steps asked for."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from core.engine.night_order import NightOrder


class Step(IntEnum):
    FIRST = 1
    SECOND = 2
    THIRD = 3


def test_steps_run_in_order_and_handlers_in_attachment_order():
    order: NightOrder[Step, Any] = NightOrder(Step)
    ran: list[str] = []

    @order.at(Step.THIRD)
    def third(game: Any) -> None:
        ran.append("third")

    @order.at(Step.FIRST)
    def first_a(game: Any) -> None:
        ran.append("first-a")

    @order.at(Step.FIRST)
    def first_b(game: Any) -> None:
        ran.append("first-b")

    order.walk(None, Step.FIRST, Step.THIRD)
    assert ran == ["first-a", "first-b", "third"]
    ran.clear()
    order.walk(None, Step.SECOND, Step.THIRD)
    assert ran == ["third"]
    assert order.handlers(Step.FIRST) == (first_a, first_b)
