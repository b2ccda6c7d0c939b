"""Logging for a running bot: one JSON object per line (for journald, Docker and log
shippers) or plain text for a terminal. Secrets are masked in what the formatter wrote,
tracebacks included (`core.redaction`); the libraries speak from WARNING up."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

from core.redaction import RedactingFormatter

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


# the libraries' own logging: what they say at INFO (matrix-nio every event it handles, httpx
# every request, tortoise "Tortoise-ORM shutdown" as the first line of every start) is
# chatter to a host; their warnings and errors stay, and `level = "DEBUG"` shows their INFO
# (their DEBUG, every SQL statement and sync, would drown the bot's own)
LIBRARIES = ("tortoise", "aiosqlite", "asyncpg", "nio", "peewee", "httpx", "httpcore",
             "telegram", "aiohttp.access")


def setup_logging(level: str, style: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter(JsonFormatter() if style == "json" else
                                            logging.Formatter(
                                                "%(asctime)s %(levelname)s %(name)s: "
                                                "%(message)s")))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for library in LIBRARIES:
        logging.getLogger(library).setLevel(logging.INFO if level == "DEBUG" else
                                            max(logging.WARNING, logging.getLevelName(level)))
    # the pool retries its floor of connections with a traceback each time; the database
    # watch (core/storage/availability.py) reports an outage instead, in two lines
    logging.getLogger("asyncpg.pool").setLevel(logging.ERROR)
