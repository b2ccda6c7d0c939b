"""What follows when a platform did not take an outbox row, by the kind of error it raised:
one table, read top to bottom (a subclass before its base), from the error to the row's new
status, whether the chat is held for the rest of the round (so that its order is kept),
whether it counts as the platform's failure (metrics, outages), and who hears of it.

Who hears: the host or the group is told before the row's status is written (a crash
between the two leaves the row `sending`, to be recovered, rather than a failure nobody
heard of); the game service, told about the chat itself (moved, lost, a right missing),
hears after it is written, as it may change the chat's rows."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from core.storage.models import Outbox
from core.storage.states import OutboxState

from ..messages.outbox import tell_group_unreachable
from ..ports.contract import (
    ChatChange,
    ChatEvent,
    ChatLost,
    ChatMoved,
    ChatRef,
    Invited,
    NotAllowed,
    PermanentError,
    TransientError,
    UnknownOutcome,
    Unreachable,
)
from ..ports.refusals import Untouchable
from ..telling.undelivered import tell_host


class Watcher(Protocol):
    """Who hears what delivery learned about a chat (the game service)."""

    async def chat_event(self, event: ChatEvent) -> None: ...

    async def order_refused(self, outbox_id: int, never: bool = False) -> None: ...


Tell = Callable[[Outbox], Awaitable[None]]
Hear = Callable[[Watcher, Outbox, Exception], Awaitable[None]]


async def chat_moved(watcher: Watcher, row: Outbox, err: Exception) -> None:
    assert isinstance(err, ChatMoved)
    await watcher.chat_event(ChatEvent(row.platform, ChatRef.parse(row.chat_ref), ChatChange.MOVED,
                                       new_ref=err.new_ref))


async def chat_lost(watcher: Watcher, row: Outbox, err: Exception) -> None:
    assert isinstance(err, ChatLost)
    await watcher.chat_event(ChatEvent(row.platform, ChatRef.parse(row.chat_ref), ChatChange.LOST,
                                       reason=err.reason, whole=err.reason.whole))


async def order_refused(watcher: Watcher, row: Outbox, err: Exception) -> None:
    await watcher.order_refused(row.id)


async def order_impossible(watcher: Watcher, row: Outbox, err: Exception) -> None:
    await watcher.order_refused(row.id, never=True)


@dataclass(frozen=True, slots=True)
class AfterFailure:
    status: OutboxState  # the row's new status
    holds_chat: bool = False  # nothing later for the same chat this round
    counts: bool = False  # one more of the platform's failures (its metrics)
    outage: bool = False  # a sign that the platform may be down (it may rest)
    retried: bool = False  # tried again after a back-off, or failed for good (`Deliverer.retry`)
    tell: Tell | None = None  # the host or the group, before the status is written
    hear: Hear | None = None  # the game service, after
    log_as: str = ""  # the log line, with the row's id and the error
    level: int = logging.WARNING  # the log line's level (ERROR: with the traceback)


#: from the error's kind to what follows, a subclass before its base
AFTER_FAILURE: tuple[tuple[type[Exception], AfterFailure], ...] = (
    # the failed message goes to the chat's new place, at once
    (ChatMoved, AfterFailure(OutboxState.PENDING, holds_chat=True, hear=chat_moved)),
    # retried until the platform answers again; failed for good (the host told) once the
    # platform takes everything else and only this keeps failing
    (TransientError, AfterFailure(OutboxState.PENDING, holds_chat=True, counts=True, outage=True,
                                  retried=True)),
    # may have arrived: posting it again could double it
    (UnknownOutcome, AfterFailure(OutboxState.UNKNOWN, counts=True, outage=True,
                                  log_as="delivery %s may or may not have arrived: %s")),
    # posted when the bot can write there again
    (ChatLost, AfterFailure(OutboxState.LOST, holds_chat=True, counts=True, hear=chat_lost)),
    # no right can make it possible: dropped, the host told what the platform does instead
    (Untouchable, AfterFailure(OutboxState.IMPOSSIBLE, hear=order_impossible, level=logging.INFO,
                               log_as="delivery %s can never be done there: %s")),
    # done when the bot has the right again
    (NotAllowed, AfterFailure(OutboxState.NORIGHTS, hear=order_refused, level=logging.INFO,
                              log_as="delivery %s waits for the right to do it: %s")),
    # sent when the reader accepts the invitation he has (or writes to the bot)
    (Invited, AfterFailure(OutboxState.UNREACHABLE, level=logging.INFO,
                           log_as="delivery %s waits for its reader to accept an invitation: %s")),
    # sent when the reader writes to the bot; the group hears that he cannot be reached
    (Unreachable, AfterFailure(OutboxState.UNREACHABLE, counts=True, tell=tell_group_unreachable,
                               level=logging.INFO,
                               log_as="delivery %s waits for its reader: %s")),
    (PermanentError, AfterFailure(OutboxState.FAILED, counts=True, tell=tell_host,
                                  log_as="delivery %s failed for good: %s")),
    # not the platform's answer (a text that cannot be rendered, a missing catalog entry, a
    # bug): this row alone fails, visibly, and the round goes on
    (Exception, AfterFailure(OutboxState.FAILED, tell=tell_host, level=logging.ERROR,
                             log_as="delivery %s could not be rendered or handed over: %s")),
)


def after_failure(err: Exception) -> AfterFailure:
    """The first row of the table whose kind the error is."""
    return next(after for kind, after in AFTER_FAILURE if isinstance(err, kind))
