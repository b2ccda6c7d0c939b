"""Secrets never reach a log: every log record of the process is checked for the registered
secrets (bot tokens, passwords) and they are replaced, whichever library logs them
(python-telegram-bot logs its API URL, which contains the token, at DEBUG)."""

from __future__ import annotations

import logging
from typing import Any

MASK = "[secret]"
_secrets: set[str] = set()
_installed = False


def hide(secret: str) -> None:
    """Register a secret to be masked in every log record from now on."""
    global _installed
    if len(secret) >= 6:  # shorter strings would mask ordinary words
        _secrets.add(secret)
    if not _installed:
        base = logging.getLogRecordFactory()

        def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = base(*args, **kwargs)
            if _secrets:
                text = record.getMessage()
                masked = text
                for known in _secrets:
                    masked = masked.replace(known, MASK)
                if masked != text:
                    record.msg, record.args = masked, None
            return record

        logging.setLogRecordFactory(factory)
        _installed = True
