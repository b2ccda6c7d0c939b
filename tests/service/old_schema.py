"""A database as the previous version left it: what migration 0006 replaced put back as that
version wrote it, in one `key_value` table under f-string keys (see core/storage/legacy.py
for the list), the new tables dropped, the later migrations' columns too (0007: the archive
token; 0008: the game-by-chat index and the arrival function; 0009: the vote messages;
0010: the deadline's kind), and 0006 on unrecorded, so that the next open upgrades it
again."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from tortoise import connections

from core.storage.models import (
    AdapterState,
    Ballot,
    DeliveryLease,
    KnownTeamRoom,
    MessageRef,
    Prompt,
    SignupButtons,
    Told,
)

LATER = ("0007_archive_token", "0008_command_path",  # migrations after 0006, undone first
         "0009_vote_message", "0010_deadline_kind")
# 0010: a deadline's kind and state, fused again into the one state they were
FUSED = (("remind", "pending", "remind"), ("remind", "fired", "reminded"),
         ("giveup", "pending", "giveup"))
NEW_TABLES = ("ballot", "prompt", "signup_buttons", "team_room", "told", "delivery_lease",
              "adapter_state", "message_ref")


async def old_rows() -> dict[str, Any]:
    """The new tables' rows as the previous version kept them: key → value."""
    rows: dict[str, Any] = {}
    for ballot in await Ballot.all():
        rows[f"ballot-{ballot.game_id}-{ballot.window}"] = ballot.buttons
    offered: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for prompt in await Prompt.all().order_by("id"):
        offered[f"keyboards-{prompt.game_id}-{prompt.window}"].append({
            "identity": prompt.identity_id, "replace": prompt.message_key,
            "payload": prompt.payload})
    rows.update(offered)
    for signup in await SignupButtons.all():
        rows[f"signup-{signup.game_id}"] = signup.buttons
    teams: dict[str, dict[str, str]] = defaultdict(dict)
    for room in await KnownTeamRoom.all().order_by("id"):
        teams[f"teams-{room.game_id}"][room.key] = room.title
    rows.update(teams)
    for told in await Told.all():
        if told.kind == "unreachable":
            rows[f"unreachable-{told.game_id}-{told.identity_id}"] = True
        else:
            rows[f"told-{told.kind}-{told.chat_id}-{told.game_id or 0}-{told.identity_id}"] = True
    for lease in await DeliveryLease.all():
        rows["outbox-lease"] = {"worker": lease.worker, "until": lease.until}
    for state in await AdapterState.all():
        value = state.value["v"]
        if (state.platform, state.namespace) == ("console", "clock"):
            rows["console_clock"] = value
        elif (state.platform, state.namespace) == ("console", "update"):
            rows["console_update"] = value
        elif state.platform == "matrix":
            rows[f"matrix:{state.namespace}:{state.key}"] = {"v": value}
        elif state.platform == "telegram":
            rows[f"tg-parts:{state.key}"] = value
        # the console's keyboards: the previous version read them from the outbox
    for ref in await MessageRef.all():
        if ref.platform == "telegram":
            rows[f"tg:{ref.chat_ref}:{ref.key}"[:64]] = ref.ids
        else:
            rows[f"matrix:ref:{ref.chat_ref}:{ref.key}"] = {
                "v": {**ref.detail, "event_id": ref.ids[0]}}
    return rows


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


async def downgrade(postgres: bool, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Turn the open database into the previous version's shape (plus `extra` rows of the
    old kinds); returns the `key_value` rows written. The database stays open."""
    rows = {**await old_rows(), **(extra or {})}
    conn = connections.get("default")
    await _undo_later(conn, postgres)
    json_type = "JSONB" if postgres else "JSON"
    await conn.execute_script(
        f'CREATE TABLE "key_value" ("key" VARCHAR(64) NOT NULL PRIMARY KEY, '
        f'"value" {json_type} NOT NULL)')
    for key, value in rows.items():
        await conn.execute_script(f'INSERT INTO "key_value" ("key", "value") VALUES '
                                  f'({_literal(key)}, {_literal(json.dumps(value))})')
    for table in NEW_TABLES:
        await conn.execute_script(f'DROP TABLE "{table}"')
    await conn.execute_script("DELETE FROM \"tortoise_migrations\" WHERE \"name\" = "
                              "'0006_tables'")
    return rows


async def _undo_later(conn: Any, postgres: bool) -> None:
    """What the migrations after 0006 added: the game's archive token and its index, the
    game-by-chat index, (PostgreSQL) the arrival function, the vote messages, and the
    deadline's kind."""
    if postgres:
        await conn.execute_script(
            "DROP FUNCTION IF EXISTS nightfall_arrive(text, text, text, text)")
        _, found = await conn.execute_query(
            "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'game' "
            "AND indexdef LIKE '%chat_id%'")
    else:
        _, found = await conn.execute_query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'game' "
            "AND sql LIKE '%chat_id%'")
    for index in found:
        await conn.execute_script(f'DROP INDEX "{index["name"]}"')
    if not postgres:  # SQLite drops no column an index names
        _, found = await conn.execute_query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'game' "
            "AND sql LIKE '%archive_token%'")
        for index in found:
            await conn.execute_script(f'DROP INDEX "{index["name"]}"')
    await conn.execute_script('ALTER TABLE "game" DROP COLUMN "archive_token"')
    await conn.execute_script('DROP TABLE "vote_message"')
    for kind, state, fused in FUSED:
        await conn.execute_script(
            f'UPDATE "deadline" SET "state" = {_literal(fused)} '
            f'WHERE "kind" = {_literal(kind)} AND "state" = {_literal(state)}')
    await conn.execute_script('ALTER TABLE "deadline" DROP COLUMN "kind"')
    names = ", ".join(_literal(name) for name in LATER)
    await conn.execute_script(f'DELETE FROM "tortoise_migrations" WHERE "name" IN ({names})')
