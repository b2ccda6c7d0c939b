"""A game's rows and its engine game: loading by replaying the log (checked against the
stored snapshot), the row's lock, and who sits in which seat. Each is read once per
command: what the command already read is in its unit of work, the rest is asked of the
repository."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from tortoise.exceptions import DoesNotExist

from core.engine import Game, Refused, replay
from core.engine.ids import PlayerId
from core.engine.log_codec import command_from_json, setup_from_json
from core.engine.registry import load_ruleset
from core.storage.models import Chat, GameRecord, Identity

from .build import build_of
from .repository import has_snapshot, repository
from .unit_of_work import current_work

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
    logged = await repository().log(row.id)
    try:
        game = replay(ruleset, setup_from_json(row.setup or {}),
                      [command_from_json(command) for command in logged])
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


async def snapshot_of(row: GameRecord) -> Any:
    """The row's stored snapshot, read now if the row was read without it."""
    if not has_snapshot(row):
        row.snapshot = await repository().snapshot(row.id)
    return row.snapshot


async def locked_game(game_id: int) -> GameRecord:
    """The game's row, locked until the transaction ends (PostgreSQL; SQLite has one writer
    anyway): commands for one game are applied one at a time, whichever worker has them."""
    work = current_work()
    arrived = None if work is None else work.take_arrived(lambda row: row.id == game_id)
    if arrived is not None:
        return _remembered(arrived)
    row = await repository().lock_game(game_id)
    if row is None:
        raise DoesNotExist(GameRecord)
    return _remembered(row)


def _remembered(row: GameRecord) -> GameRecord:
    """A game row this command read: kept in its unit of work for what only needs the
    game's id and rule set (`known_game`), so that nothing asks the database for it again."""
    work = current_work()
    if work is not None:
        work.games[row.id] = row
    return row


def known_game(game_id: int) -> GameRecord | None:
    """The game row this command already read, if it did (see `_remembered`)."""
    work = current_work()
    return None if work is None else work.games.get(game_id)


async def chat_game(chat: Chat, statuses: Sequence[str], lock: bool) -> GameRecord | None:
    """The chat's (first) game in one of `statuses`; with `lock`, locked as `locked_game`
    (and so read fresh); the row knows its chat (no query to ask it)."""
    work = current_work()
    row = None if work is None else work.take_arrived(
        lambda arrived: arrived.chat_id == chat.id and arrived.status in statuses)
    if row is None:
        row = await repository().chat_game(chat.id, statuses, lock)
    if row is None:
        return None
    row.chat = chat
    return _remembered(row)


async def relock(row: GameRecord) -> None:
    """Lock an already loaded row and bring it up to date: another worker may have applied a
    command since it was read (its snapshot is then read again when needed)."""
    fresh = await locked_game(row.id)
    if fresh is not row:
        repository().refreshed(row, fresh)


async def seat_identities(row: GameRecord) -> dict[PlayerId, Identity]:
    """Who sits in which seat (the active seats, in the order they were taken): one query
    per command's transaction (see `unit_of_work`), none where the arrival read them."""
    work = current_work()
    if work is not None and row.id in work.seats:
        return dict(work.seats[row.id])
    found = await repository().seats(row.id)
    if work is not None:
        work.seats[row.id] = found
    return dict(found)


async def seat_pid(row: GameRecord, person: Identity) -> PlayerId | None:
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
