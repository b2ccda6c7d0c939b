"""A reverse proxy of the test's own between the bot and the real Synapse, which can go down
as the proxy in front of a homeserver does when the homeserver is away: for a while every
request is answered by the proxy's 502 Bad Gateway page or by a connection closed without an
answer, now and then by a 429 M_LIMIT_EXCEEDED (a homeserver shedding load as it comes and
goes); a long poll waiting upstream when the outage begins is cut off the same way.

The outage lasts a number of seconds on a clock of the test's choosing (the bot's own, which
the test moves forward), and may begin with the first request a test picks (a role card being
sent). That request reaches Synapse, and only its answer is lost: the bot cannot know whether
its message was posted, and sends it again under the same transaction id. So are the answers
to the first few sends after the outage (`lose_after`), as a connection that breaks again
while the homeserver comes back. (aiohttp itself sends a PUT whose pooled connection was
closed under it once more at once, an idempotent method; the outbox then retries it too:
either way under the same transaction id.)"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable

from aiohttp import ClientSession, ClientTimeout, web

from tests.telegram.fake_outage import BAD_GATEWAY_PAGE

Request = Callable[[web.Request], bool]
HOP_BY_HOP = {"host", "content-length", "transfer-encoding", "connection", "keep-alive",
              "content-encoding"}


def kind(request: web.Request) -> str:
    """What a client-server API request is, for the record: "send" (a PUT of an event),
    "sync", or the method and the path's last word."""
    path = request.path
    if request.method == "PUT" and "/send/" in path:
        return "send"
    if path.endswith("/sync"):
        return "sync"
    return f"{request.method} {path.rstrip('/').rsplit('/', 1)[-1]}"


def rate_limited(ms: int) -> web.Response:
    return web.json_response({"errcode": "M_LIMIT_EXCEEDED", "error": "Too Many Requests",
                              "retry_after_ms": ms}, status=429)


class Outage:
    """One outage, armed or running, and what it answered."""

    def __init__(self, seconds: float, clock: Callable[[], float], starting_with: Request,
                 limited: int = 3, lose_after: int = 2) -> None:
        self.seconds = seconds
        self.clock = clock
        self.starting_with = starting_with
        self.limited = limited  # 429s still to answer
        self.lose_after = lose_after  # sends after the outage whose answers are lost
        self.until: float | None = None
        self.began = asyncio.Event()
        self.refused: list[str] = []  # what was asked during it, in order
        self.answers: list[str] = []  # how each was answered: 502, drop, 429, lost
        self._turn = itertools.count()

    def running(self, request: web.Request) -> bool:
        """Whether this request falls into the outage (starting it, if it waits for it)."""
        if self.until is None and self.starting_with(request):
            self.until = self.clock() + self.seconds
            self.began.set()
        return self.until is not None and self.clock() < self.until

    @property
    def over(self) -> bool:
        return self.until is not None and self.clock() >= self.until

    def answer(self, request: web.Request) -> web.StreamResponse:
        """The outage's answer: a 502 page, a dropped connection, or (every fifth, a few
        times) a rate limit; a 502 first."""
        self.refused.append(kind(request))
        turn = next(self._turn)
        if turn % 4 == 2 and self.limited > 0:
            self.limited -= 1
            self.answers.append("429")
            return rate_limited(3000)
        if turn % 2 == 1:
            return self.drop(request, "drop")
        self.answers.append("502")
        return web.Response(status=502, text=BAD_GATEWAY_PAGE, content_type="text/html")

    def drop(self, request: web.Request, how: str) -> web.StreamResponse:
        self.answers.append(how)
        if request.transport is not None:
            request.transport.abort()  # the client reads EOF: "Server disconnected"
        return web.Response(status=502)  # never written: the connection is gone


class Proxy:
    """The proxy: forwards everything to `upstream` unless an outage runs."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.outage: Outage | None = None
        self.posted: list[str] = []  # the event ids Synapse answered to the bot's sends
        self.limit_syncs = 0  # syncs still to answer with a 429, outage or not
        self.watch: Callable[[web.Request], None] | None = None  # sees every request
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        self.url = ""

    async def start(self) -> str:
        self._session = ClientSession(timeout=ClientTimeout(total=120), auto_decompress=False)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    def go_down(self, seconds: float, clock: Callable[[], float], starting_with: Request,
                **how: int) -> Outage:
        self.outage = Outage(seconds, clock, starting_with, **how)
        return self.outage

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if self.watch is not None:
            self.watch(request)
        if self.limit_syncs > 0 and kind(request) == "sync":
            self.limit_syncs -= 1
            return rate_limited(200)
        outage = self.outage
        if outage is not None:
            first = outage.until is None
            if outage.running(request):
                if first:  # the request that began it reaches Synapse; its answer does not
                    outage.refused.append(kind(request))
                    await self._forward(request)
                    return outage.drop(request, "lost")
                return outage.answer(request)
            if outage.over and outage.lose_after > 0 and kind(request) == "send":
                outage.lose_after -= 1
                await self._forward(request)
                return outage.drop(request, "lost")
        forwarding = asyncio.ensure_future(self._forward(request))
        if outage is None or outage.began.is_set():
            return await forwarding
        down = asyncio.ensure_future(outage.began.wait())  # a long poll cut off by it
        done, _ = await asyncio.wait({forwarding, down}, return_when=asyncio.FIRST_COMPLETED)
        if forwarding in done:
            down.cancel()
            return forwarding.result()
        forwarding.cancel()
        return outage.answer(request)

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        async with self._session.request(request.method, self.upstream + request.path_qs,
                                         data=body, headers=headers) as upstream:
            answer = await upstream.read()
            if kind(request) == "send" and upstream.status == 200:
                self.posted.append(json.loads(answer)["event_id"])
            kept = {k: v for k, v in upstream.headers.items() if k.lower() not in HOP_BY_HOP}
            return web.Response(status=upstream.status, body=answer, headers=kept)
