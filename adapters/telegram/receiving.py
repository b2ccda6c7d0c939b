"""Receiving updates from Telegram: long polling, or a webhook. Either way an update is
confirmed to Telegram only after it was handled, and no update can stall the bot.

An update whose handling fails because the database is down is fetched (or, by webhook,
delivered) again later: nothing sent to the bot is lost in an outage. The poller then waits
on the process's database watch (which logs the outage once) and fetches again as soon as
the database answers. One that fails for any other reason would fail again forever: it is
logged with its id and confirmed.

After a start or an outage the poller polls without waiting until a batch shorter than a
full one was applied: then Telegram's queue is empty, and it tells the runtime's `CatchUp`
(deadlines wait for that).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from telegram import Bot, Update
from telegram.error import TelegramError

from core.service import CatchUp, database_watch, is_outage

log = logging.getLogger(__name__)

UpdateHandler = Callable[[Update], Awaitable[None]]
MAX_BACKOFF = 30.0
BATCH = 100  # getUpdates' default limit: a shorter batch was all that was queued
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class Outage(Exception):
    """Handling an update failed because the database is unreachable: try it again later."""


async def handle_once(update: Update, handle: UpdateHandler) -> None:
    """Handle one update; raise `Outage` where trying again later can help, else log and
    return (the update is then confirmed)."""
    try:
        await handle(update)
    except asyncio.CancelledError:
        raise
    except Exception as err:
        if is_outage(err):
            raise Outage(str(err)) from err
        log.exception("telegram: update %s could not be handled; it is skipped",
                      update.update_id)


class Poller:
    """Long polling that confirms an update only after it was handled (the next getUpdates
    carries the offset past it). PTB's own poller confirms a batch as soon as it is fetched,
    so a crash would lose what was fetched but not yet applied; here it is fetched again
    after a restart, and the service applies it once."""

    def __init__(self, bot: Bot, handle: UpdateHandler, timeout: int,
                 allowed_updates: list[str], catch_up: CatchUp | None = None,
                 name: str = "telegram") -> None:
        self.bot = bot
        self.handle = handle
        self.timeout = timeout
        self.allowed_updates = allowed_updates
        self.catch_up = catch_up
        self.name = name
        self.stopping = asyncio.Event()
        self.busy = False
        self.backoff = 0.0  # seconds of the current back-off after a polling error
        self.unconfirmed = 0  # fetched updates not yet applied (and so not confirmed)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="telegram-poll")

    async def _run(self) -> None:
        offset: int | None = None
        backoff = 1.0
        while not self.stopping.is_set():
            behind = self.catch_up is not None and self.catch_up.is_behind(self.name)
            try:
                updates = await self.bot.get_updates(
                    offset=offset, timeout=0 if behind else self.timeout,
                    allowed_updates=self.allowed_updates)
                self.busy = True
                self.unconfirmed = len(updates)
                for update in updates:
                    await handle_once(update, self.handle)
                    offset = update.update_id + 1
                    self.unconfirmed -= 1
            except TelegramError as err:
                self.backoff = backoff
                log.warning("telegram: polling failed (%s), retrying in %.0f s", err, backoff)
                self.busy = False
                await self._pause(backoff)
                backoff = min(MAX_BACKOFF, backoff * 2)
                continue
            except Outage as err:
                self.busy = False
                if database_watch().failed(err.__cause__ or err):
                    await self._wait_for_database()
                else:  # "database is locked" and the like: a moment later
                    log.warning("telegram: the database is busy (%s)", err)
                    await self._pause(1.0)
                continue
            finally:
                self.busy = False
            backoff = 1.0
            self.backoff = 0.0
            if behind and len(updates) < BATCH and self.catch_up is not None:
                self.catch_up.caught_up(self.name)
        if offset is not None:  # confirm the last batch before leaving
            with contextlib.suppress(TelegramError):
                await self.bot.get_updates(offset=offset, timeout=0)

    async def _wait_for_database(self) -> None:
        """Until the database answers again (the watch probes it), or a stop."""
        watch = database_watch()
        while not watch.available and not self.stopping.is_set():
            await self._pause(0.1)

    async def _pause(self, seconds: float) -> None:
        """Wait before trying again, but not past a stop."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), seconds)

    async def stop(self) -> None:
        """Stop fetching; the batch being handled is finished and confirmed first (a waiting
        long poll or back-off is simply cancelled: what it would have brought is fetched
        next time)."""
        self.stopping.set()
        if self._task is None:
            return
        if not self.busy:
            self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class WebhookServer:
    """Telegram posts each update to us; it is answered only after it was handled, and
    answered 503 when the database is down (Telegram then delivers it again later). PTB's
    own webhook server answers 200 before handling, so a failure there loses the update."""

    def __init__(self, bot: Bot, handle: UpdateHandler, listen: str, port: int,
                 path: str, secret: str | None) -> None:
        self.bot = bot
        self.handle = handle
        self.listen = listen
        self.port = port
        self.path = path
        self.secret = secret
        self._runner: web.AppRunner | None = None
        self.in_flight = 0

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post(self.path, self._receive)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.listen, self.port).start()

    async def _receive(self, request: web.Request) -> web.Response:
        if self.secret is not None and not hmac.compare_digest(
                request.headers.get(SECRET_HEADER, ""), self.secret):
            return web.Response(status=403)
        try:
            data: Any = await request.json()
            update = Update.de_json(data, self.bot)
        except ValueError:
            return web.Response(status=400)
        self.in_flight += 1
        try:
            await handle_once(update, self.handle)
        except Outage as err:
            log.warning("telegram: update %s waits: the database is unreachable (%s)",
                        update.update_id, err)
            return web.Response(status=503)
        finally:
            self.in_flight -= 1
        return web.Response(status=200)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
