"""An update's arrival on PostgreSQL (`nightfall_arrive`, one round trip) reads the game's
seats as the last holder of the game's lock left them: a command that had to wait for
another worker's sees that worker's change (here a player who left the lobby), not the
seats as they were when it began to wait. A duplicate locks nothing."""

from __future__ import annotations

import asyncio
import json

import asyncpg

from core.storage.models import Chat, GameRecord, Seat

from .conftest import POSTGRES, reset_postgres
from .helpers import PLAYERS, open_chat

ARRIVE = "SELECT nightfall_arrive($1, $2, $3, $4)"


async def _lobby() -> tuple[object, Chat, GameRecord, list[Seat]]:
    await reset_postgres()
    chat = await open_chat(POSTGRES)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:4]))
    group = await Chat.get()
    row = await GameRecord.get()
    seats = await Seat.filter(game_id=row.id, active=True).order_by("id").prefetch_related(
        "identity")
    return chat, group, row, seats


async def test_the_seats_are_read_after_the_lock_as_its_holder_left_them():
    chat, group, row, seats = await _lobby()
    leaving = seats[-1]
    holder = await asyncpg.connect(POSTGRES)
    waiter = await asyncpg.connect(POSTGRES)
    try:
        lock = holder.transaction()
        await lock.start()
        await holder.execute("SELECT id FROM game WHERE id = $1 FOR UPDATE", row.id)
        await holder.execute("UPDATE seat SET active = false WHERE id = $1", leaving.id)
        waiting = waiter.transaction()
        await waiting.start()
        arrival = asyncio.create_task(waiter.fetchval(
            ARRIVE, group.platform, "after-the-lock", seats[0].identity.ref, group.ref))
        await asyncio.sleep(0.5)
        assert not arrival.done()  # it waits for the game's lock
        await lock.commit()
        found = json.loads(await asyncio.wait_for(arrival, 10))
        await waiting.commit()
    finally:
        await holder.close()
        await waiter.close()
        await chat.session.stop()
    assert found["fresh"] and found["game"]["id"] == row.id
    assert "snapshot" not in found["game"]
    assert [s["pid"] for s in found["seats"]] == [s.pid for s in seats[:-1]]
    assert found["person"]["ref"] == seats[0].identity.ref


async def test_a_duplicate_update_reads_and_locks_nothing():
    chat, group, row, seats = await _lobby()
    first = await asyncpg.connect(POSTGRES)
    second = await asyncpg.connect(POSTGRES)
    try:
        assert json.loads(await first.fetchval(
            ARRIVE, group.platform, "twice", seats[0].identity.ref, group.ref))["fresh"]
        holding = first.transaction()
        await holding.start()
        await first.execute("SELECT id FROM game WHERE id = $1 FOR UPDATE", row.id)
        again = json.loads(await asyncio.wait_for(second.fetchval(
            ARRIVE, group.platform, "twice", seats[0].identity.ref, group.ref), 5))
        await holding.rollback()
    finally:
        await first.close()
        await second.close()
        await chat.session.stop()
    assert again == {"fresh": False}
