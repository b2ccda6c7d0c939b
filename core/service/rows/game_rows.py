"""A game's rows and its engine game: loading by replaying the log
(checked against the stored snapshot), the row's lock, and who sits in which seat."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any

from tortoise import connections
from tortoise.exceptions import DoesNotExist
from tortoise.models import Model

from core.engine import Game, Refused, replay
from core.engine.log_codec import command_from_json, setup_from_json
from core.engine.registry import load_ruleset
from core.storage.models import Chat, GameRecord, Identity, LogEntry

from .build import build_of
from .scope import memo

log = logging.getLogger(__name__)


class StateMismatch(RuntimeError):
    """The stored snapshot and the replayed log disagree: the game must not go on silently."""


def encode_snapshot(game: Game) -> Any:
    """The canonical state as stored JSON: `canonical` makes it of JSON's own types (lists,
    string-keyed dicts, scalars), equal to what the database gives back, so it needs no
    round trip through the encoder (once 1.7 ms a command)."""
    return game.snapshot()


async def replayed(row: GameRecord) -> Game:
    """The game rebuilt from its setup and log; a snapshot that disagrees is corruption
    under the same code, and only a warning after the rules' code changed."""
    ruleset = load_ruleset(row.ruleset)
    entries = await LogEntry.filter(game_id=row.id).order_by("seq")
    try:
        game = replay(ruleset, setup_from_json(row.setup or {}),
                      [command_from_json(e.command) for e in entries])
    except Refused as refusal:  # only after an upgrade: the new code refuses an old move
        raise StateMismatch(f"game {row.id}: the log no longer replays: "
                            f"{refusal.text.key}") from refusal
    stored = await snapshot_of(row)
    if stored is not None and encode_snapshot(game) != stored:
        if row.build == build_of(ruleset):
            raise StateMismatch(f"game {row.id}: snapshot and replay disagree")
        log.warning("game %s: the rules' code changed since its snapshot; it goes on "
                    "from its log, replayed under the new code", row.id)
    return game


def _columns(model: type[Model], alias: str) -> str:
    return ", ".join(f'{alias}."{c}"' for c in model._meta.fields_db_projection.values())


# A game row as the command path reads it (`game_columns`): without its snapshot, which is
# only needed when the game is not held in memory at the row's version (`snapshot_of`); read,
# it was a third of the lock's round trip (about 9 KB of JSON out of the database, decoded).
@cache
def game_columns() -> str:
    """(Asked once tortoise knows the models: their foreign keys' columns come with that.)"""
    return ", ".join(f'g."{c}"' for c in GameRecord._meta.fields_db_projection.values()
                     if c != "snapshot")


def game_from_db(data: dict[str, Any]) -> GameRecord:
    """A row of `game_columns()`: its snapshot unread, and the row partial, so that it can only
    be saved field by field (a whole save would need the snapshot it does not have). As
    JSON (`nightfall_arrive`) its time is a string: read here by the standard library's
    parser, many times faster than tortoise's."""
    created = data.get("created_at")
    if isinstance(created, str):
        data = {**data, "created_at": datetime.fromisoformat(created)}
    row = GameRecord._init_from_db(**data, snapshot=None)
    object.__delattr__(row, "snapshot")
    object.__setattr__(row, "_partial", True)
    return row


async def snapshot_of(row: GameRecord) -> Any:
    """The row's stored snapshot, read now if the row was read without it."""
    if "snapshot" not in row.__dict__:
        rows = await _select("SELECT g.snapshot FROM game g WHERE g.id = $1", [row.id])
        field = GameRecord._meta.fields_map["snapshot"]
        row.snapshot = field.to_python_value(rows[0]["snapshot"]) if rows else None
    return row.snapshot


async def _select(sql: str, values: list[Any]) -> list[dict[str, Any]]:
    """Rows of a hand-written query (`$n` parameters; for SQLite, which has one writer and
    no row locks, `?` and no FOR UPDATE). The command path's few reads are written out:
    building them through the ORM cost more processor time than the rest of a command."""
    conn = connections.get("default")
    if conn.capabilities.dialect != "postgres":
        sql = re.sub(r"\$\d+", "?", sql.replace(" FOR UPDATE", ""))
    _, rows = await conn.execute_query(sql, values)
    return [dict(r) for r in rows]


async def locked_game(game_id: int) -> GameRecord:
    """The game's row, locked until the transaction ends (PostgreSQL; SQLite has one writer
    anyway): commands for one game are applied one at a time, whichever worker has them."""
    arrived = _arrived(lambda row: row.id == game_id)
    if arrived is not None:
        return _remembered(arrived)
    rows = await _select(f"SELECT {game_columns()} FROM game g WHERE g.id = $1 FOR UPDATE",
                         [game_id])
    if not rows:
        raise DoesNotExist(GameRecord)
    return _remembered(game_from_db(rows[0]))


ARRIVED = "arrived game"  # the memo's key for the game row the arrival locked


def _arrived(wanted: Callable[[GameRecord], bool]) -> GameRecord | None:
    """The game row the update's first statement locked (`arrival`), if it is the one
    `wanted`: handed to the first that asks for it; later asks read the row again, as they
    always did."""
    known = memo()
    if known is None or known.get(ARRIVED) is None or not wanted(known[ARRIVED]):
        return None
    row: GameRecord = known.pop(ARRIVED)
    return row


def _remembered(row: GameRecord) -> GameRecord:
    """A game row this command read: kept in its scope for what only needs the game's id and
    rule set (`known_game`), so that nothing asks the database for it again."""
    known = memo()
    if known is not None:
        known["game", row.id] = row
    return row


def known_game(game_id: int) -> GameRecord | None:
    """The game row this command already read, if it did (see `_remembered`)."""
    known = memo()
    return None if known is None else known.get(("game", game_id))


async def chat_game(chat: Chat, statuses: tuple[str, ...], lock: bool) -> GameRecord | None:
    """The chat's (first) game in one of `statuses`; with `lock`, locked as `locked_game`
    (and so read fresh); the row knows its chat (no query to ask it)."""
    # the first lobby or running game of the chat, locked: also the first of any of these
    # statuses when its own status is one of them (a chat has one game at a time anyway)
    arrived = _arrived(lambda row: row.chat_id == chat.id and row.status in statuses)
    if arrived is not None:
        arrived.chat = chat
        return _remembered(arrived)
    marks = ", ".join(f"${n}" for n in range(2, len(statuses) + 2))
    rows = await _select(f"SELECT {game_columns()} FROM game g WHERE g.chat_id = $1 "
                         f"AND g.status IN ({marks}) ORDER BY g.id LIMIT 1"
                         + (" FOR UPDATE" if lock else ""), [chat.id, *statuses])
    if not rows:
        return None
    row = game_from_db(rows[0])
    row.chat = chat
    return _remembered(row)


async def relock(row: GameRecord) -> None:
    """Lock an already loaded row and bring it up to date: another worker may have applied a
    command since it was read (its snapshot is then read again when needed)."""
    fresh = await locked_game(row.id)
    if fresh is row:
        return
    for name in ("status", "version", "window", "settings", "setup", "paused_left"):
        setattr(row, name, getattr(fresh, name))
    row.__dict__.pop("snapshot", None)
    object.__setattr__(row, "_partial", True)


async def seat_identities(row: GameRecord) -> dict[str, Identity]:
    """Who sits in which seat (the active seats, in the order they were taken): one query
    per command's transaction (see `scope`), none where the arrival read them."""
    known = memo()
    key = ("seats", row.id)
    if known is not None and key in known:
        return dict(known[key])
    rows = await _select(f"SELECT s.pid AS seat_pid, {_columns(Identity, 'i')} FROM seat s "
                         "JOIN identity i ON i.id = s.identity_id "
                         "WHERE s.game_id = $1 AND s.active ORDER BY s.id", [row.id])
    found = {}
    for seat in rows:
        pid = seat.pop("seat_pid")
        found[pid] = Identity._init_from_db(**seat)
    if known is not None:
        known[key] = found
    return dict(found)


def remember_arrival(game: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    """The game row the arrival locked and its seats read after the lock, as
    `nightfall_arrive` gives them, for `chat_game`, `locked_game` and `seat_identities`."""
    known = memo()
    if known is None:
        return
    row = game_from_db(game)
    known[ARRIVED] = row
    known["seats", row.id] = {seat["pid"]: Identity._init_from_db(**seat["identity"])
                              for seat in seats}


async def seat_pid(row: GameRecord, person: Identity) -> str | None:
    """The person's seat in the game (its engine player id), if he plays in it."""
    return next((pid for pid, identity in (await seat_identities(row)).items()
                 if identity.id == person.id), None)


async def host_of(row: GameRecord) -> Identity:
    """The game's host: from the seats when he plays (no query of his own)."""
    host = next((identity for identity in (await seat_identities(row)).values()
                 if identity.id == row.host_id), None)
    return host if host is not None else await Identity.get(id=row.host_id)


async def chat_of(row: GameRecord) -> Chat:
    """The game's group chat, asked of the database once per row object (a chat's platform
    and ref never change)."""
    chat: Chat = await row.chat
    row.chat = chat  # kept on the row: the next ask costs nothing
    return chat
