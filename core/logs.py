"""Logging for a running bot: one JSON object per line (for journald, Docker and log
shippers) or plain text for a terminal. Secrets are masked before any formatter sees them
(`core.redaction`)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def setup_logging(level: str, style: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if style == "json" else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("tortoise", "aiosqlite", "asyncpg", "nio", "peewee"):
        logging.getLogger(noisy).setLevel(max(logging.INFO, logging.getLevelName(level)))
    # the pool retries its floor of connections with a traceback each time; the database
    # watch (core/storage/availability.py) reports an outage instead, in two lines
    logging.getLogger("asyncpg.pool").setLevel(logging.ERROR)
