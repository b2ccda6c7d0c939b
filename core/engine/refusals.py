"""Typed refusals: a player's illegal move is data that renders to a translated reply.

A bug is an exception of any other type; a `Refused` carries a gettext key and parameters and
guarantees (by the engine's validate-then-mutate discipline) that nothing changed.
"""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """The engine refused a command; `key` is the English msgid of the reason."""

    # Plain refusals have no plural form: class-level defaults, as refusals are frequent.
    plural: str | None = None
    count: int | None = None

    def __init__(self, key: str, **params: Any) -> None:
        # `BaseException.__new__` has already kept (key,) as `args`: no `super().__init__`.
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"Refused({self.key!r}, {self.params!r})"


def refused_n(singular: str, plural: str, count: int, **params: Any) -> Refused:
    """A refusal whose text depends on a number (ngettext); `count` is also a parameter."""
    refusal = Refused(singular, count=count, **params)
    refusal.plural = plural
    refusal.count = count
    return refusal
