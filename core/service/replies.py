"""Answers to bad input: raised by the service's handlers before anything changes, and sent
privately to whoever sent the input (or shown as a short notice on the pressed button)."""

from __future__ import annotations

from typing import Any


class Reply(Exception):
    def __init__(self, key: str, plural: str | None = None, count: int | None = None,
                 **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.plural = plural
        self.count = count
        self.params = params
