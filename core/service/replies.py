"""Answers to bad input: raised by the service's handlers before anything changes, and sent
privately to whoever sent the input."""

from __future__ import annotations

from typing import Any


class Reply(Exception):
    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
