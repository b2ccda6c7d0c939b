"""A database of the previous version (everything in `key_value`) is upgraded in place when
the new version opens it: a game running across the upgrade keeps its ballot, its offered
keyboards and its update counter, and plays on exactly as it would have; the adapters find
their message ids and their Matrix state where they now keep them."""

from __future__ import annotations

import hashlib

from tortoise import connections

from adapters.matrix.store import MatrixStore
from core.service.rows.adapter_tables import TableStore
from core.storage.db import close_db, open_db
from core.storage.models import Ballot, Deadline, GameRecord, Prompt

from .helpers import open_chat, started_changelings
from .old_schema import downgrade

ROLES = "liar,changeling,researcher,love_poison,pony,pony,pony"  # Gus love poison
# the mayor's vote open, then closed and the night's keyboards offered, then pressed and closed
STEPS = (("Ann: [Bob]",),
         ("Bob: [Bob]", "Cid: [Ann]", ":wait 5m"),
         ("Gus> [Ann]", "Gus> [Cid]", ":wait 5m"))


async def _upgrade_between(chat, db_url: str, extra: dict | None = None) -> dict:
    """Stop, put the database back into the previous version's shape, start again (which
    upgrades it). The console's own keyboards and the versions of the messages it printed
    are not part of the old database: kept."""
    session = chat.session
    keyboards = dict(session.adapter.keyboards)
    versions = dict(session.adapter.versions)
    await session.stop()
    await open_db(db_url)
    rows = await downgrade(postgres=not db_url.startswith("sqlite"), extra=extra)
    await close_db()
    await session.start()
    session.adapter.keyboards.update(keyboards)
    session.adapter.versions.update(versions)
    return rows


async def _play(db_url: str, upgrade: bool) -> tuple[list[str], list[dict]]:
    chat = await open_chat(db_url)
    await started_changelings(chat, ROLES)
    old = []
    for step in STEPS:
        await chat(*step)
        if upgrade:
            old.append(await _upgrade_between(chat, db_url))
        else:
            await chat.session.restart()
    transcript = chat.all()
    await chat.session.stop()
    return transcript, old


async def test_a_running_game_plays_on_across_the_upgrade(db_url, tmp_path):
    upgraded, old = await _play(db_url, upgrade=True)
    await close_db()
    plain, _ = await _play(f"sqlite://{tmp_path / 'plain.sqlite3'}", upgrade=False)
    kinds = [{key.split("-")[0].split("_")[0] for key in rows} for rows in old]
    assert {"ballot", "signup", "console"} <= kinds[0]  # the vote open
    assert "keyboards" in kinds[1]  # the night's keyboards offered
    assert upgraded == plain


async def test_old_rows_of_every_kind_find_their_tables(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat, ROLES)
    game = (await GameRecord.all().first()).id
    room, event = "!room:example.org", "$event"
    long_room = "!" + "r" * 60 + ":example.org"
    raw = f"matrix:ref:{long_room}:ballot-{game}-1"
    hashed = f"matrix:ref:#{hashlib.sha256(raw.encode()).hexdigest()[:40]}"[:64]
    await _upgrade_between(chat, db_url, extra={
        "tg:-100200:ballot-1-1": [11, 12],
        "tg-parts:40": 7,
        f"matrix:ref:{room}:signup-{game}": {"v": {"kind": "text", "event_id": event,
                                                   "msgtype": "m.notice"}},
        hashed: {"v": {"kind": "poll", "event_id": "$poll", "polls": ["$poll"]}},
        "matrix:dm:@bot:example.org": {"v": {"@ann:example.org": room}},
        "ballot-999-1": [],  # a game that is gone
        "something-else": 1,
    })
    telegram, matrix = TableStore("telegram"), TableStore("matrix")
    assert (await telegram.message("-100200", "ballot-1-1")).ids == (11, 12)
    assert await telegram.get("parts", "40") == [7]
    matrix_store = MatrixStore(matrix)
    assert await matrix_store.load("ref", room, f"signup-{game}") == {
        "kind": "text", "event_id": event, "msgtype": "m.notice"}
    assert (await matrix_store.load("ref", long_room, f"ballot-{game}-1"))["polls"] == ["$poll"]
    assert await matrix_store.load("dm", "@bot:example.org") == {"@ann:example.org": room}
    assert await Ballot.filter(game_id=game).count() == 1  # the mayor's vote, kept
    assert not await Ballot.filter(game_id=999).exists()
    tables = await connections.get("default").execute_query_dict(
        "SELECT name FROM sqlite_master WHERE type = 'table'" if db_url.startswith("sqlite")
        else "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")
    assert "key_value" not in {t["name"] for t in tables}
    await chat.session.stop()


async def test_a_deleted_game_takes_its_rows_with_it(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat, ROLES)
    await chat("Ann: [Bob]", "Bob: [Bob]", "Cid: [Ann]", ":wait 5m")
    row = await GameRecord.all().first()
    assert await Ballot.filter(game_id=row.id).exists()
    assert await Prompt.filter(game_id=row.id).exists()
    await row.delete()
    assert not await Ballot.all().exists()
    assert not await Prompt.all().exists()
    await chat.session.stop()


async def test_each_deadline_keeps_its_kind_across_the_upgrade(db_url):
    """The previous version fused a deadline's kind into its state (`remind`, `reminded`,
    `giveup`); the upgrade parts them again, and a deadline still to come fires as before."""
    chat = await open_chat(db_url)
    await started_changelings(chat, ROLES)
    row = await GameRecord.all().first()
    kinds = [("close", "pending"), ("close", "fired"), ("close", "void"), ("remind", "pending"),
             ("remind", "fired"), ("remind", "void"), ("giveup", "pending")]
    await Deadline.filter(game_id=row.id).delete()
    for kind, state in kinds:
        await Deadline.create(game=row, window=row.window, due_at=1e12, kind=kind, state=state)
    session = chat.session
    await session.stop()
    await open_db(db_url)
    await downgrade(postgres=not db_url.startswith("sqlite"))
    fused = await connections.get("default").execute_query_dict(
        'SELECT "state" FROM "deadline" ORDER BY "id"')
    assert [d["state"] for d in fused] == [
        "pending", "fired", "void", "remind", "reminded", "void", "giveup"]
    await close_db()
    await session.start()
    parted = await Deadline.filter(game_id=row.id).order_by("id")
    assert [(d.kind, d.state) for d in parted] == [
        ("close", "pending"), ("close", "fired"), ("close", "void"), ("remind", "pending"),
        ("remind", "fired"), ("close", "void"), ("giveup", "pending")]
    await session.stop()
