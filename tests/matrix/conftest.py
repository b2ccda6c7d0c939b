"""Fixtures for the Matrix end-to-end tests: one real Synapse for the whole session, fresh
users per test, and nio clients that are always closed."""

from __future__ import annotations

import os
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from nio import AsyncClient

from adapters.matrix.client.crypto import Crypto, close_store

from .harness import player_client
from .js_player import JsPlayer, NodeMissing, ensure_node_modules
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
    """Makes nio clients for registered users (encrypting ones, with their keys uploaded,
    when given a store directory) and closes every one of them, and its store, at the end."""
    made: list[AsyncClient] = []

    async def make(user: dict[str, Any], store: Path | None = None) -> AsyncClient:
        client = player_client(synapse.url, user, store)
        made.append(client)
        if client.olm:
            await Crypto(client).upload_keys()
        return client

    make_client: Callable[..., Awaitable[AsyncClient]] = make
    yield make_client
    for client in made:
        await client.close()
        close_store(client)


@pytest.fixture
async def js_players(synapse, tmp_path) -> Any:
    """Makes matrix-js-sdk players (tests/matrix/js_player.py), logged in with a password on
    the test Synapse, and stops every one at the end. Without Node the test is skipped, or
    fails under NIGHTFALL_REQUIRE_NODE=1 (CI)."""
    try:
        ensure_node_modules()
    except NodeMissing as err:
        if os.environ.get("NIGHTFALL_REQUIRE_NODE") == "1":
            pytest.fail(f"{err} (NIGHTFALL_REQUIRE_NODE=1)")
        pytest.skip(str(err))
    made: list[JsPlayer] = []

    async def make(user: dict[str, Any], name: str | None = None) -> JsPlayer:
        name = name or str(user.get("displayname") or user["user_id"])
        player = await JsPlayer(name, tmp_path / f"js-{len(made)}-{name}.log").open()
        made.append(player)
        await player.login(synapse.url, user)
        return player

    make_player: Callable[..., Awaitable[JsPlayer]] = make
    yield make_player
    for player in made:
        await player.close()
