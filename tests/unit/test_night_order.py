"""The generic night walker: steps run in the enum's order, each step's handlers by the place
they were given (never by the order they were attached in), only the steps asked for."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import pytest

from core.engine.night_order import NightOrder


class Step(IntEnum):
    FIRST = 1
    SECOND = 2
    THIRD = 3


def test_steps_run_in_order_and_handlers_by_their_place():
    order: NightOrder[Step, Any] = NightOrder(Step)
    ran: list[str] = []

    @order.at(Step.THIRD)
    def third(game: Any) -> None:
        ran.append("third")

    @order.at(Step.FIRST, place=1)
    def first_b(game: Any) -> None:
        ran.append("first-b")

    @order.at(Step.FIRST)
    def first_a(game: Any) -> None:
        ran.append("first-a")

    order.walk(None, Step.FIRST, Step.THIRD)
    assert ran == ["first-a", "first-b", "third"]
    ran.clear()
    order.walk(None, Step.SECOND, Step.THIRD)
    assert ran == ["third"]
    assert order.handlers(Step.FIRST) == (first_a, first_b)



def test_two_handlers_may_not_share_a_place_at_a_step():
    order: NightOrder[Step, Any] = NightOrder(Step)
    order.at(Step.FIRST)(lambda game: None)
    order.at(Step.SECOND)(lambda game: None)  # another step: its own places
    with pytest.raises(ValueError, match="FIRST: place 0"):
        order.at(Step.FIRST)(lambda game: None)
