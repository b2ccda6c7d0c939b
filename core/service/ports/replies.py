"""Answers to bad input: raised by the service's handlers before anything changes, and sent
privately to whoever sent the input (or shown as a short notice on the pressed button)."""

from __future__ import annotations

from core.engine.messages import Param, Text


class Reply(Exception):
    """A service answer; `text` is what it says (`count`, when given, is also a parameter)."""

    def __init__(self, key: str, plural: str | None = None, count: int | None = None,
                 **params: Param) -> None:
        super().__init__(key)
        if count is not None:
            params["count"] = count
        self.text = Text(key, params, plural, count)

    @classmethod
    def saying(cls, text: Text) -> Reply:
        """The answer that says `text` (an engine refusal's, a setup error's)."""
        reply = cls(text.key)
        reply.text = text
        return reply
