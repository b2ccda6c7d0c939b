"""Fixtures for the Matrix end-to-end tests: one real Synapse for the whole session, fresh
users per test, and nio clients that are always closed."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from nio import AsyncClient

from .harness import player_client
from .synapse import Synapse


@pytest.fixture(scope="session")
def synapse():
    server = Synapse().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def register(synapse) -> Callable[..., dict[str, Any]]:
    """A fresh user (`name-<random>`) with a display name, so every test starts clean."""

    def make(name: str, displayname: str | None = None) -> dict[str, Any]:
        return synapse.register(f"{name.lower()}-{uuid.uuid4().hex[:8]}",
                                displayname=displayname or name)

    return make


@pytest.fixture
async def clients(synapse) -> Any:
    """Makes nio clients for registered users and closes every one of them at the end."""
    made: list[AsyncClient] = []

    async def make(user: dict[str, Any]) -> AsyncClient:
        client = player_client(synapse.url, user)
        made.append(client)
        return client

    make_client: Callable[[dict[str, Any]], Awaitable[AsyncClient]] = make
    yield make_client
    for client in made:
        await client.close()
