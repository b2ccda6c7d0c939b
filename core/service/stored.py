"""A game's rows and its engine game: the setup as stored JSON, loading by replaying the log
(checked against the stored snapshot), the row's lock, and who sits in which seat."""

from __future__ import annotations

import logging
from typing import Any

from core.engine import Game, GameSetup, Refused, replay
from core.engine.registry import load_ruleset
from core.storage.models import Chat, GameRecord, Identity, LogEntry, Seat

from .build import build_of
from .codec import command_from_json
from .scope import memo

log = logging.getLogger(__name__)


class StateMismatch(RuntimeError):
    """The stored snapshot and the replayed log disagree: the game must not go on silently."""


def setup_to_json(setup: GameSetup) -> dict[str, Any]:
    return {"ruleset": setup.ruleset, "players": [list(p) for p in setup.players],
            "seed": setup.seed, "roles": None if setup.roles is None else list(setup.roles),
            "options": [list(o) for o in setup.options], "setup": [list(s) for s in setup.setup],
            "start": setup.start, "at": setup.at}


def setup_from_json(data: dict[str, Any]) -> GameSetup:
    return GameSetup(
        ruleset=data["ruleset"], players=tuple((p[0], p[1]) for p in data["players"]),
        seed=data["seed"], roles=None if data["roles"] is None else tuple(data["roles"]),
        options=tuple((o[0], o[1]) for o in data["options"]),
        setup=tuple((s[0], s[1]) for s in data["setup"]), start=data["start"],
        at=float(data.get("at", 0.0)))  # games begun before setups knew their time: 0


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
    if row.snapshot is not None and encode_snapshot(game) != row.snapshot:
        if row.build == build_of(ruleset):
            raise StateMismatch(f"game {row.id}: snapshot and replay disagree")
        log.warning("game %s: the rules' code changed since its snapshot; it goes on "
                    "from its log, replayed under the new code", row.id)
    return game


async def locked_game(game_id: int) -> GameRecord:
    """The game's row, locked until the transaction ends (PostgreSQL; SQLite has one writer
    anyway): commands for one game are applied one at a time, whichever worker has them."""
    return await GameRecord.filter(id=game_id).select_for_update().get()


async def relock(row: GameRecord) -> None:
    """Lock an already loaded row and bring it up to date: another worker may have applied a
    command since it was read."""
    fresh = await locked_game(row.id)
    for name in ("status", "version", "window", "snapshot", "settings", "setup", "paused_left"):
        setattr(row, name, getattr(fresh, name))


async def seat_identities(row: GameRecord) -> dict[str, Identity]:
    """Who sits in which seat (the active seats, in the order they were taken): one query
    per command's transaction (see `scope`)."""
    known = memo()
    key = ("seats", row.id)
    if known is not None and key in known:
        return dict(known[key])
    seats = await Seat.filter(game_id=row.id, active=True).select_related("identity") \
        .order_by("id")
    found = {seat.pid: seat.identity for seat in seats}
    if known is not None:
        known[key] = found
    return dict(found)


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
