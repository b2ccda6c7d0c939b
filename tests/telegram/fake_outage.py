"""Telegram down, for the fake Bot API: for a while every call is answered as an outage
answers it — by the front proxy's 502 Bad Gateway page, or by a connection closed without
any answer — and nothing is processed (no message sent, no update handed out).

An outage lasts a number of seconds on a clock of the test's choosing (the bot's own, which a
test moves forward, so ten minutes of outage need not take ten minutes), and may begin only
with the next call of some method (the moment the bot starts sending role cards)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Literal

from aiohttp import web

Mode = Literal["502", "drop", "mixed"]

BAD_GATEWAY_PAGE = ("<html><head><title>502 Bad Gateway</title></head><body><center>"
                    "<h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>")


class Outage:
    """One outage, armed or running, and what it answered."""

    def __init__(self, seconds: float, clock: Callable[[], float], mode: Mode = "mixed",
                 starting_with: str | None = None) -> None:
        self.seconds = seconds
        self.clock = clock
        self.mode = mode
        self.starting_with = starting_with.lower() if starting_with else None
        self.until: float | None = None if starting_with else clock() + seconds
        self.refused: list[str] = []  # the methods called during it, in order
        self._turn = itertools.count()

    def running(self, method: str) -> bool:
        """Whether this call falls into the outage (starting it, if it was waiting for it)."""
        if self.until is None and method.lower() == self.starting_with:
            self.until = self.clock() + self.seconds
        return self.until is not None and self.clock() < self.until

    @property
    def over(self) -> bool:
        return self.until is not None and self.clock() >= self.until

    def answer(self, request: web.Request, method: str) -> web.StreamResponse:
        """The outage's answer to one call: a 502 page, or (`drop`) the connection closed
        unanswered; `mixed` alternates them."""
        self.refused.append(method)
        drop = self.mode == "drop" or (self.mode == "mixed" and next(self._turn) % 2 == 1)
        if drop and request.transport is not None:
            request.transport.abort()  # the client reads EOF: "Server disconnected"
            return web.Response(status=502)  # never written: the connection is gone
        return web.Response(status=502, text=BAD_GATEWAY_PAGE, content_type="text/html")
