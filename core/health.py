"""The small HTTP endpoint of a running bot (off by default): `/healthz` answers whether the
database is reachable, every adapter is connected and the scheduler loop is alive; `/metrics`
gives Prometheus the numbers a host watches."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from aiohttp import web
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from tortoise import connections

from core.service.runtime import Runtime
from core.storage.models import GameRecord, Outbox
from core.story.web import add_archive_routes

log = logging.getLogger(__name__)
STALE_LOOP = 30.0  # seconds without a scheduler round: the loop is stuck


class Snapshot:
    """Numbers read from the database when Prometheus scrapes (collectors are synchronous)."""

    def __init__(self) -> None:
        self.active_games = 0
        self.backlog: dict[str, int] = {}

    async def refresh(self) -> None:
        self.active_games = await GameRecord.filter(status="running").count()
        rows = await Outbox.filter(status="pending").values_list("platform", flat=True)
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
                                      value=service.deadlines_fired)
            yield CounterMetricFamily("nightfall_deadline_lateness_seconds",
                                      "Summed delay between a deadline and its firing",
                                      value=service.deadline_lateness)
        backlog = GaugeMetricFamily("nightfall_outbox_backlog", "Messages waiting to be sent",
                                    labels=["platform"])
        failures = CounterMetricFamily("nightfall_delivery_failures",
                                       "Failed delivery attempts since start", labels=["platform"])
        for adapter in self.runtime.adapters:
            backlog.add_metric([adapter.platform], self.snapshot.backlog.get(adapter.platform, 0))
            failed = deliverer.failures.get(adapter.platform, 0) if deliverer else 0
            failures.add_metric([adapter.platform], failed)
        yield backlog
        yield failures


async def health(runtime: Runtime) -> dict[str, Any]:
    checks: dict[str, Any] = {}
    try:
        await connections.get("default").execute_query("SELECT 1")
        checks["database"] = True
    except Exception as err:  # any failure means: not reachable
        log.warning("health: database check failed: %s", err)
        checks["database"] = False
    checks["adapters"] = {a.platform: bool(getattr(a, "connected", True))
                          for a in runtime.adapters}
    checks["scheduler"] = runtime.clock.now() - runtime.last_loop_at < STALE_LOOP
    checks["ok"] = checks["database"] and checks["scheduler"] and all(
        checks["adapters"].values())
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
        await self.snapshot.refresh()
        return web.Response(body=generate_latest(self.registry),
                            headers={"Content-Type": "text/plain; version=0.0.4"})
