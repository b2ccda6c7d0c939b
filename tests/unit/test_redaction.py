"""Logs a host can read (issue 32, problem 8): the configuration's secrets and anything shaped
like one are masked everywhere a log line or an error can carry them — the message, the
extras, the traceback — and the libraries' chatter stays below the host's INFO."""

from __future__ import annotations

import io
import json
import logging

import pytest
from pydantic import SecretStr

from core.config import settings_model
from core.logs import LIBRARIES, setup_logging
from core.redaction import MASK, hide_settings, redact

TELEGRAM_TOKEN = "7715293846:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
MATRIX_TOKEN = "syt_bmlnaHRmYWxs_QXGxkZVGzRVnCbRSeLQv_0kDyIr"


@pytest.fixture
def records(monkeypatch):
    """The root logger as `nightfall run` sets it up, writing JSON lines into a buffer."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level, {n: logging.getLogger(n).level for n in LIBRARIES}
    setup_logging("INFO", "json")
    out = io.StringIO()
    root.handlers[0].setStream(out)  # type: ignore[attr-defined]
    yield out
    root.handlers[:], level, libraries = saved
    root.setLevel(level)
    for name, library_level in libraries.items():
        logging.getLogger(name).setLevel(library_level)


def test_the_configurations_secrets_are_registered_and_masked(monkeypatch, tmp_path):
    settings = settings_model()(
        database={"url": "postgres://nightfall:db-Pass-word@db:5432/nightfall"},
        matrix={"enabled": True, "user_id": "@bot:example.org", "password": "hunter2-long",
                "access_token": "an-opaque-token-value"},
        telegram={"enabled": True, "token": "12345:short", "webhook_secret": "hook-secret"})
    hide_settings(settings)
    line = ("password hunter2-long, token an-opaque-token-value, db db-Pass-word, "
            "hook hook-secret, bot 12345:short")
    masked = redact(line)
    for secret in ("hunter2-long", "an-opaque-token-value", "db-Pass-word", "hook-secret",
                   "12345:short"):
        assert secret not in masked
    assert masked.count(MASK) == 5


@pytest.mark.parametrize("text", [
    f"The token `{TELEGRAM_TOKEN}` was rejected by the server.",
    f"GET https://api.telegram.org/bot{TELEGRAM_TOKEN}/getMe",
    f"sync failed: Authorization: Bearer {MATRIX_TOKEN}",
    "GET /_matrix/client/v3/sync?since=s1&access_token=abcdef0123456789",
    '{"type": "m.login.password", "password": "correct horse battery"}',
    "connect postgres://nightfall:s3cret-pw@db:5432/nightfall failed",
])
def test_what_looks_like_a_secret_is_masked_unregistered(text):
    masked = redact(text)
    assert MASK in masked
    for secret in (TELEGRAM_TOKEN, MATRIX_TOKEN, "abcdef0123456789", "correct horse",
                   "s3cret-pw"):
        assert secret not in masked


def test_ordinary_text_is_left_alone():
    text = "game 12 at 21:00: Ann votes for Bob; https://matrix.example.org:8448/_matrix"
    assert redact(text) == text


def test_a_secret_in_an_exception_and_its_traceback_is_masked(records):
    try:
        raise RuntimeError(f"login refused for {MATRIX_TOKEN} via {TELEGRAM_TOKEN}")
    except RuntimeError:
        logging.getLogger("nightfall").exception("start failed", extra={"url": TELEGRAM_TOKEN})
    [line] = records.getvalue().splitlines()
    entry = json.loads(line)
    assert "RuntimeError" in entry["exception"]
    assert TELEGRAM_TOKEN not in line and MATRIX_TOKEN not in line


def test_the_libraries_say_nothing_below_warning_at_info(records):
    for name in ("nio.rooms", "httpx", "tortoise", "aiosqlite", "telegram.ext.Application"):
        logging.getLogger(name).info("chatter from %s", name)
        logging.getLogger(name).warning("trouble in %s", name)
    logging.getLogger("nightfall").info("nightfall is running")
    lines = [json.loads(line) for line in records.getvalue().splitlines()]
    assert [e["level"] for e in lines if e["logger"] != "nightfall"] == ["WARNING"] * 5
    assert any(e["message"] == "nightfall is running" for e in lines)


def test_secrets_are_registered_from_any_section(monkeypatch):
    """A plugin's own section is walked too: every SecretStr, whatever its name."""
    settings = settings_model()(telegram={"token": SecretStr("plugin-declared-secret")})
    hide_settings(settings)
    assert redact("x plugin-declared-secret y") == f"x {MASK} y"
