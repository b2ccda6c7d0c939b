"""The game repository (`GameRepository`): the port through which a command finds, locks,
reads and saves its game, with one implementation per database. No other module of the
service reaches past the ORM's public API."""

from __future__ import annotations

from .port import GameRepository
from .postgres import PostgresRepository
from .sql import connection, has_snapshot
from .sqlite import SqliteRepository

__all__ = ["GameRepository", "has_snapshot", "repository"]

_POSTGRES = PostgresRepository()
_SQLITE = SqliteRepository()


def repository() -> GameRepository:
    """The repository for the database the task's connection speaks to."""
    return _POSTGRES if connection().capabilities.dialect == "postgres" else _SQLITE
