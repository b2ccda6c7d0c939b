"""Fixtures for the Telegram end-to-end tests: the fake Bot API server, and storage on SQLite
and the machine's PostgreSQL (from the service tests)."""

from __future__ import annotations

import pytest

from tests.service.conftest import db_url  # noqa: F401  (the SQLite and PostgreSQL parameters)

from .fake_botapi import FakeBotAPI


@pytest.fixture
async def api():
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()
