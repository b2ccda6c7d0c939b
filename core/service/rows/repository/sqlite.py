"""The repository on SQLite, where a statement costs no round trip and the database has one
writer: no row locks, the update marked and each row asked for in turn, the new rows
inserted in bulk before the game row's update."""

from __future__ import annotations

from ...ports.contract import Incoming
from ..unit_of_work import UnitOfWork
from .sql import SqlRepository


class SqliteRepository(SqlRepository):
    """(One writer: a transaction holds the whole database, so nothing is locked by row.)"""

    @staticmethod
    def mark(n: int) -> str:
        return "?"

    async def arrive(self, incoming: Incoming, work: UnitOfWork) -> bool | None:
        return None  # the caller marks the update; the rows are read when asked
