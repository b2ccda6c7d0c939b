"""Typed refusals: a player's illegal move is data that renders to a translated reply.

A bug is an exception of any other type; a `Refused` carries a `Text` and guarantees (by the
engine's validate-then-mutate discipline) that nothing changed.
"""

from __future__ import annotations

from .messages import Param, Text

_new = tuple.__new__


class Refused(Exception):
    """The engine refused a command; `text` says why."""

    def __init__(self, key: str, /, **params: Param) -> None:
        # `BaseException.__new__` has already kept (key,) as `args`: no `super().__init__`
        # (random players and the spent-power checks are refused thousands of times a game);
        # the `Text` is built by the tuple's own constructor, as `Table.tell` builds its own
        self.text = _new(Text, (key, params, None, None))

    @classmethod
    def saying(cls, text: Text) -> Refused:
        refusal = cls(text.key)
        refusal.text = text
        return refusal

    def __repr__(self) -> str:
        return f"Refused({self.text!r})"


def refused_n(singular: str, plural: str, count: int, /, **params: Param) -> Refused:
    """A refusal whose text depends on a number (ngettext); `count` is also a parameter."""
    return Refused.saying(Text(singular, {"count": count, **params}, plural, count))
