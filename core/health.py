"""The small HTTP endpoint of a running bot (off by default): `/healthz` answers whether the
bot can actually work (503 when not): the database reachable, every adapter connected and
receiving, the scheduler loop's rounds succeeding and recent; beside that, when the last
command was applied and the last delivery round done, the version running, whether deadlines
wait for a receiver to catch up, the poller's back-off and its fetched but unconfirmed
updates, and each platform's backlog against its budget (`over_budget` when more waits than
its rates carry in twenty seconds: the bot still works, its players wait). `/metrics` gives
Prometheus the numbers a host watches."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

from aiohttp import web
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from tortoise import connections

from core import __version__
from core.service import ReportsHealth
from core.service.delivery import stuck
from core.service.ports.adapter import connected
from core.service.runtime import Runtime
from core.storage.models import GameRecord, Outbox
from core.storage.states import GameStatus, OutboxState
from core.story.web import add_archive_routes

log = logging.getLogger(__name__)
STALE_LOOP = 30.0  # seconds without a scheduler round: the loop is stuck
PROBE_TIMEOUT = 2.0  # seconds the health check waits for the database's answer


class Snapshot:
    """Numbers read from the database when Prometheus scrapes (collectors are synchronous)."""

    def __init__(self) -> None:
        self.active_games = 0
        self.backlog: dict[str, int] = {}
        self.outbox = {"sending": 0, "stuck": 0, "unknown": 0}

    async def refresh(self, now: float) -> None:
        """The numbers now; while the database is away the last ones stay."""
        try:
            await asyncio.wait_for(self._read(now), PROBE_TIMEOUT * 2)
        except Exception as err:  # the database is away: /metrics still answers
            log.info("metrics: database not read (%s)", err)

    async def _read(self, now: float) -> None:
        self.outbox = await stuck.counts(now)
        self.active_games = await GameRecord.filter(status=GameStatus.RUNNING).count()
        rows = await Outbox.filter(status=OutboxState.PENDING).values_list("platform", flat=True)
        backlog: dict[str, int] = {}
        for platform in rows:
            backlog[str(platform)] = backlog.get(str(platform), 0) + 1
        self.backlog = backlog


class RuntimeCollector(Collector):
    def __init__(self, runtime: Runtime, snapshot: Snapshot) -> None:
        self.runtime = runtime
        self.snapshot = snapshot

    def collect(self) -> Iterator[Any]:
        service, deliverer = self.runtime.service, self.runtime.deliverer
        yield GaugeMetricFamily("nightfall_active_games", "Games running now",
                                value=self.snapshot.active_games)
        if service is not None:
            yield CounterMetricFamily("nightfall_commands_applied",
                                      "Updates applied since start", value=service.commands_applied)
            yield CounterMetricFamily("nightfall_deadlines_fired", "Deadlines fired since start",
                                      value=service.firing.fired)
            yield CounterMetricFamily("nightfall_deadline_lateness_seconds",
                                      "Summed delay between a deadline and its firing",
                                      value=service.firing.lateness)
        backlog = GaugeMetricFamily("nightfall_outbox_backlog", "Messages waiting to be sent",
                                    labels=["platform"])
        failures = CounterMetricFamily("nightfall_delivery_failures",
                                       "Failed delivery attempts since start", labels=["platform"])
        resting = GaugeMetricFamily("nightfall_platform_resting",
                                    "Whether the platform is down (failures in a row, nothing "
                                    "delivered since, or the adapter cannot reach it): its "
                                    "messages wait, probed until it answers",
                                    labels=["platform"])
        for adapter in self.runtime.adapters:
            backlog.add_metric([adapter.platform], self.snapshot.backlog.get(adapter.platform, 0))
            failed = deliverer.failures.get(adapter.platform, 0) if deliverer else 0
            failures.add_metric([adapter.platform], failed)
            # the adapter's own word counts too: while it cannot reach the platform (a sync
            # refused) nothing is handed to it, so no further failure would ever say so
            down = not connected(adapter) or (
                deliverer is not None and deliverer.outages.down(adapter.platform))
            resting.add_metric([adapter.platform], 1 if down else 0)
        over = GaugeMetricFamily("nightfall_outbox_over_budget",
                                 "Whether more messages wait than the platform's rates carry "
                                 "in twenty seconds", labels=["platform"])
        for adapter in self.runtime.adapters:
            strained = deliverer is not None and adapter.platform in deliverer.budget.over()
            over.add_metric([adapter.platform], 1 if strained else 0)
        yield backlog
        yield failures
        yield resting
        yield over
        for name, what in (("sending", "Outbox rows being sent"),
                           ("stuck", "Outbox rows in sending past the lease (a failed write)"),
                           ("unknown", "Outbox rows that may or may not have arrived")):
            yield GaugeMetricFamily(f"nightfall_outbox_{name}", what,
                                    value=self.snapshot.outbox[name])
        database = self.runtime.database
        yield GaugeMetricFamily("nightfall_database_up", "Whether the database answers",
                                value=1 if database.available else 0)
        yield CounterMetricFamily("nightfall_database_outages", "Database outages since start",
                                  value=database.outages)


async def database_answers() -> bool:
    try:
        await asyncio.wait_for(connections.get("default").execute_query("SELECT 1"),
                               PROBE_TIMEOUT)
        return True
    except Exception as err:  # any failure means: not reachable
        log.info("health: database check failed: %s", err)
        return False


def ago(now: float, then: float | None) -> float | None:
    return None if then is None else round(max(0.0, now - then), 1)


async def health(runtime: Runtime) -> dict[str, Any]:
    now = runtime.clock.now()
    checks: dict[str, Any] = {"version": __version__}
    checks["database"] = runtime.database.available and await database_answers()
    checks["adapters"] = {a.platform: connected(a) for a in runtime.adapters}
    delivered = runtime.last_delivery_round
    checks["scheduler"] = (now - runtime.last_loop_at < STALE_LOOP and not runtime.round_failed
                           and delivered is not None and now - delivered < STALE_LOOP)
    service = runtime.service
    checks["last_command"] = ago(now, service.last_command_at if service else None)
    checks["last_delivery_round"] = ago(now, delivered)
    checks["waiting"] = runtime.catchup.waiting  # receivers the deadlines wait for
    checks["caught_up"] = not checks["waiting"]
    receiving = {a.platform: dict(a.receiving) for a in runtime.adapters
                 if isinstance(a, ReportsHealth)}
    checks["receiving"] = {p: r for p, r in receiving.items() if r}
    # a backlog the platform's budget cannot carry (more games than one token): said, not
    # failed (the bot works, its players wait)
    deliverer = runtime.deliverer
    strain = deliverer.budget.strain if deliverer is not None else {}
    checks["delivery"] = {name: s.report() for name, s in strain.items()}
    checks["over_budget"] = deliverer.budget.over() if deliverer is not None else []
    polling = all(not r.get("backoff") for r in receiving.values())
    checks["ok"] = bool(checks["database"] and checks["scheduler"] and polling and all(
        checks["adapters"].values()))
    return checks


class HealthServer:
    def __init__(self, runtime: Runtime, listen: str, port: int) -> None:
        self.runtime = runtime
        self.listen = listen
        self.port = port
        self.snapshot = Snapshot()
        self.registry = CollectorRegistry()
        self.registry.register(RuntimeCollector(runtime, self.snapshot))
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        add_archive_routes(app)  # the finished games' pages (core/story/web.py)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.listen, self.port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info("health endpoint on http://%s:%s", self.listen, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        checks = await health(self.runtime)
        return web.json_response(checks, status=200 if checks["ok"] else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        await self.snapshot.refresh(self.runtime.clock.now())
        return web.Response(body=generate_latest(self.registry),
                            headers={"Content-Type": "text/plain; version=0.0.4"})
