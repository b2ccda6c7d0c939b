"""Fixtures for the Telegram end-to-end tests: the fake Bot API server, and storage on SQLite
and the machine's PostgreSQL (from the service tests)."""

from __future__ import annotations

import pytest

from tests.service.conftest import db_url  # noqa: F401  (the SQLite and PostgreSQL parameters)

from .fake_botapi import FakeBotAPI, assert_no_violations


@pytest.fixture(autouse=True)
def _no_botapi_violations():
    """Fail every test in which a fake Bot API received a request Telegram would refuse or
    silently misread (see FakeBotAPI.violations), whoever made the fake."""
    FakeBotAPI.created = []
    try:
        yield
        for server in FakeBotAPI.created:
            assert_no_violations(server)
    finally:
        FakeBotAPI.created = None


@pytest.fixture
async def api():
    """A fake Bot API with Telegram's defaults (privacy mode on); tests that want another
    world set it (`api.privacy = False`, `api.group(..., supergroup=True, bot_admin=True)`)."""
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()
    assert_no_violations(server)
