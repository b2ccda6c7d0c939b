"""One process: the service, its deadline scheduler and outbox deliverer, and the platform
adapters, all on one event loop.

Adapters receive updates and hand them to `Runtime.handle`; the runtime's loop then fires due
deadlines and delivers the outbox, waking at once when an update changed something and at
least every `tick` seconds otherwise (deadlines and flood-limit pauses come due on their own),
sooner when a waiting message's budget refills before that.

When the database is unreachable the loop waits on the process's `DatabaseWatch` (one log
line down, one back, a probe a second); after a start and after the database's return,
deadlines wait until the receivers caught up with the queued updates (`CatchUp`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from core.storage import availability
from core.storage.db import close_db
from core.storage.startup import open_when_reachable

from .commands.game_service import GameService
from .delivery.deliverer import Deliverer
from .delivery.stuck import reconcile_sending
from .games.deadline_times import GameDefaults
from .ports.adapter import CatchesUp, PlatformAdapter, connected
from .ports.catchup import CatchUp
from .ports.clock import Clock, RealClock
from .ports.contract import ChatEvent, Incoming, LoginRefused, Notice
from .ports.membership import MemberBack, MemberLeft, Membership
from .rows.adapter_tables import TableStore

log = logging.getLogger(__name__)

MAX_CONNECT_BACKOFF = 60.0  # seconds between tries to reach a platform
class Runtime:
    def __init__(self, db_url: str, adapters: list[PlatformAdapter], clock: Clock | None = None,
                 seed: int | None = None, tick: float = 0.25,
                 defaults: GameDefaults | None = None) -> None:
        self.db_url = db_url
        self.defaults = defaults
        self.adapters = adapters
        self.stores = {a.platform: TableStore(a.platform) for a in adapters}
        self.clock = clock or RealClock()
        self.seed = seed
        self.tick = tick
        self.service: GameService | None = None
        self.deliverer: Deliverer | None = None
        self.wake = asyncio.Event()
        self.last_loop_at = 0.0
        self.last_delivery_round: float | None = None  # the last delivery round that worked
        self.round_failed = False  # the last round of the loop failed (not an outage)
        self.catchup = CatchUp(self.clock)
        for adapter in adapters:  # receivers that can tell when they caught up
            if isinstance(adapter, CatchesUp) and adapter.catches_up:
                self.catchup.register(adapter.platform)
        self.database = availability.install()
        self._loop_task: asyncio.Task[None] | None = None
        self._retries: list[asyncio.Task[None]] = []
        self.broken = asyncio.Event()  # set when a platform refused the bot's credentials
        self.refused: LoginRefused | None = None

    async def start(self) -> None:
        await self.open()
        await self.connect()

    async def open(self, loop: bool = True, start_timeout: float = 0.0) -> None:
        """The database, the service and the scheduler loop, without the platforms (the
        health endpoint can then report while they connect). Without the `loop`, whoever
        opened it fires deadlines and delivers (the console, step by step). A database
        that cannot be reached is tried again for `start_timeout` seconds
        (`DatabaseUnreachable` after that)."""
        await open_when_reachable(self.db_url, start_timeout)
        self.service = GameService(self.clock, self.seed, self.defaults,
                                   {a.platform: a.wording for a in self.adapters},
                                   {a.platform: a.limits for a in self.adapters})
        # on PostgreSQL several workers may share the games: one of them delivers at a time
        shared = self.db_url.startswith(("postgres://", "postgresql://"))
        self.deliverer = Deliverer({a.platform: a for a in self.adapters}, self.clock, shared,
                                   watcher=self.service)
        self.database.on_back(self._caught_up_later)
        self._caught_up_later()  # a (re)start: updates may wait on the platforms
        if loop:
            self._loop_task = asyncio.create_task(self._run(), name="nightfall-loop")

    def _caught_up_later(self) -> None:
        """Updates queued on the platforms go before the deadlines that came due."""
        assert self.service is not None
        self.catchup.hold()
        self.service.firing.skip_reminders_before = self.catchup.stale_before
        self.wake.set()

    async def connect(self) -> None:
        for adapter in self.adapters:
            await self._connect(adapter)

    async def _connect(self, adapter: PlatformAdapter) -> None:
        """Start an adapter. Credentials the platform refuses are fatal (`LoginRefused`
        propagates); a platform that cannot be reached now is tried again in the
        background, with back-off, while the rest runs (it shows as down in /healthz)."""
        try:
            await adapter.start(self.handle, self.stores[adapter.platform], self.catchup)
        except LoginRefused:
            raise
        except Exception as err:
            log.warning("%s: cannot connect (%s); trying again in the background",
                        adapter.platform, err)
            self._retries.append(asyncio.create_task(self._reconnect(adapter),
                                                     name=f"connect-{adapter.platform}"))

    async def _reconnect(self, adapter: PlatformAdapter) -> None:
        delay = 1.0
        while True:
            await asyncio.sleep(delay)
            try:
                await adapter.start(self.handle, self.stores[adapter.platform], self.catchup)
            except LoginRefused as err:
                log.error("%s", err)
                self.refused = err
                self.broken.set()
                return
            except Exception as err:
                delay = min(MAX_CONNECT_BACKOFF, delay * 2)
                log.warning("%s: still cannot connect (%s); next try in %.0f s",
                            adapter.platform, err, delay)
                continue
            log.info("%s: connected", adapter.platform)
            return

    async def handle(self, incoming: Incoming | ChatEvent | Membership) -> Notice | None:
        """An update from a platform: a message or a press (a notice for the presser), news
        about a chat itself, or someone leaving it or coming back."""
        assert self.service is not None
        if isinstance(incoming, ChatEvent):
            await self.service.chat_event(incoming)
            notice = None
        elif isinstance(incoming, (MemberLeft, MemberBack)):
            await self.service.membership(incoming)
            notice = None
        else:
            notice = await self.service.handle(incoming)
        self.wake.set()
        return notice

    async def _run(self) -> None:
        assert self.service is not None and self.deliverer is not None
        while True:
            self.last_loop_at = self.clock.now()
            busy = outage = failed = False
            # a bounded batch: after a long outage the messages of the first games go out
            # while the rest still fire; a failure of either half does not stop the other
            if not self.catchup.holding():
                try:
                    busy = bool(await self.service.fire_due_deadlines(limit=50))
                except asyncio.CancelledError:
                    raise
                except Exception as err:  # a broken game must not stop the others
                    outage = self._outage(err, "firing deadlines failed")
                    failed = not outage
            try:  # a row whose `sent` could not be written counts as unknown (delivery/stuck.py)
                await reconcile_sending(self.deliverer.worker, self.clock.now())
                busy = bool(await self.deliverer.deliver_due()) or busy
                self.last_delivery_round = self.clock.now()
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the next round retries
                outage = self._outage(err, "delivery round failed") or outage
                failed = failed or not outage
            self.round_failed = failed
            if outage:
                await self.database.wait_up()
                continue
            if busy:
                continue
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self._pause())

    def _pause(self) -> float:
        """Seconds the loop may sleep: a tick, or less when a message's budget refills
        sooner (a backlog paced by the platform's rates goes at those rates)."""
        ready = self.deliverer.next_ready if self.deliverer is not None else None
        if ready is None:
            return self.tick
        return min(self.tick, max(0.0, ready - self.clock.now()))

    def _outage(self, err: Exception, what: str) -> bool:
        """Whether `err` means the database is away (the watch logs that, once); anything
        else is logged here with its traceback."""
        if self.database.failed(err):
            return True
        log.error(what, exc_info=err)
        return False

    async def stop(self) -> None:
        """Stop receiving, let the command in flight finish, deliver what can go now, close."""
        for retry in self._retries:
            retry.cancel()
        for retry in self._retries:
            with contextlib.suppress(asyncio.CancelledError):
                await retry
        for adapter in reversed(self.adapters):
            if connected(adapter):
                await adapter.stop()
        if self._loop_task is not None:
            assert self.service is not None
            async with self.service.lock:  # the command in flight finishes first
                self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        if self.deliverer is not None:
            with contextlib.suppress(Exception):  # the database may be away: the lease ends
                await self.deliverer.release()
        await self.database.stop()
        await close_db()
