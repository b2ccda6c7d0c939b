"""Secrets never reach a log or the terminal: the configuration's secrets (bot tokens,
passwords, access tokens, the database password) are registered at start (`hide_settings`),
and every log record, exception text included, is masked for them and for what looks like a
secret, whoever logs it (python-telegram-bot puts the token in its API URLs and in the
message of a refused token; nio and httpx log request URLs with `access_token=`).
`redact` is for the one-line errors the command line prints itself."""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, SecretStr

MASK = "[secret]"
_secrets: set[str] = set()
_installed = False

# what a secret looks like, known or not: a Telegram bot token, a bearer token, Synapse's and
# MAS's access and refresh tokens, a query parameter or JSON key that carries one, a URL's password
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<![0-9])\d{5,}:[A-Za-z0-9_-]{30,}"), MASK),  # also in /bot<token>/
    (re.compile(r"\b(Bearer\s+)[^\s\"',]+"), rf"\1{MASK}"),
    (re.compile(r"\b(?:syt|syr|mat|mar|mct)_[A-Za-z0-9_-]{8,}"), MASK),
    (re.compile(r"\b(access_token|refresh_token|password|token)=[^&\s\"']+"), rf"\1={MASK}"),
    (re.compile(r"(\"(?:access_token|refresh_token|password|token)\"\s*:\s*\")[^\"]*\""),
     rf'\1{MASK}"'),
    (re.compile(r"(://[^/\s:@]+:)[^@\s/]+@"), rf"\1{MASK}@"),
)


def redact(text: str) -> str:
    """`text` with every registered secret and every secret-shaped string masked."""
    for known in sorted(_secrets, key=len, reverse=True):  # a longer one may contain another
        text = text.replace(known, MASK)
    for pattern, replacement in _SHAPES:
        text = pattern.sub(replacement, text)
    return text


def hide(secret: str) -> None:
    """Register a secret to be masked in every log record from now on."""
    if len(secret) >= 6:  # shorter strings would mask ordinary words
        _secrets.add(secret)
    _install()


def hide_settings(settings: BaseModel) -> None:
    """Register every secret of a configuration: each `SecretStr` in any section (whatever
    plugin declared it) and the password in the database URL."""
    for value in settings.__dict__.values():
        if isinstance(value, SecretStr):
            hide(value.get_secret_value())
        elif isinstance(value, BaseModel):
            hide_settings(value)
        elif isinstance(value, str) and "://" in value:
            password = urlsplit(value).password
            if password:
                hide(password)
    _install()


class RedactingFormatter(logging.Formatter):
    """Masks what another formatter wrote: the message, the extras and the traceback."""

    def __init__(self, inner: logging.Formatter) -> None:
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        return redact(self.inner.format(record))


def _install() -> None:
    """Mask each record's message as it is made, for handlers that are not ours (a test's
    log capture, a library's own handler)."""
    global _installed
    if _installed:
        return
    base = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = base(*args, **kwargs)
        text = record.getMessage()
        masked = redact(text)
        if masked != text:
            record.msg, record.args = masked, None
        return record

    logging.setLogRecordFactory(factory)
    _installed = True
