"""`nightfall run`: every configured adapter, the scheduler and the outbox in one process,
the health endpoint if enabled, and a graceful stop on SIGTERM or SIGINT (the command in
flight finishes, what can be delivered is delivered, the database closes)."""

from __future__ import annotations

import asyncio
import logging
import signal

from core.config import Settings
from core.health import HealthServer
from core.logs import setup_logging
from core.plugins import build_adapters, config_warnings
from core.service.games.deadline_times import GameDefaults
from core.service.runtime import Runtime
from core.storage.startup import DatabaseUnreachable

log = logging.getLogger("nightfall")


async def serve(settings: Settings) -> None:
    setup_logging(settings.log.level, settings.log.format)
    defaults = settings.defaults
    runtime = Runtime(settings.database.url, build_adapters(settings),
                      defaults=GameDefaults(defaults.language, defaults.pace, defaults.timezone,
                                            defaults.give_up_hours, settings.http.public_url,
                                            defaults.leave_grace_minutes * 60))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    http = None
    try:
        await runtime.open(start_timeout=settings.database.start_timeout)
    except DatabaseUnreachable as err:  # one line in the configured format, no traceback
        log.error("%s", err)
        raise
    if settings.http.enabled:  # before the platforms: a supervisor sees what is down
        http = HealthServer(runtime, settings.http.listen, settings.http.port)
        await http.start()
    try:
        await runtime.connect()
        for line in config_warnings(settings):
            log.warning("%s", line)
        log.info("nightfall is running",
                 extra={"platforms": [a.platform for a in runtime.adapters]})
        stopping = asyncio.create_task(stop.wait())
        broken = asyncio.create_task(runtime.broken.wait())
        await asyncio.wait((stopping, broken), return_when=asyncio.FIRST_COMPLETED)
        for waiting in (stopping, broken):
            waiting.cancel()
        log.info("stopping")
    finally:
        if http is not None:
            await http.stop()
        await runtime.stop()
        log.info("stopped")
    if runtime.refused is not None:
        raise runtime.refused
