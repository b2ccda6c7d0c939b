"""What follows a failed delivery is read from one table, top to bottom: every kind of error
the adapters raise reaches its own row (none is shadowed by a row for its base class), and
the rows say what the outbox's states mean."""

from __future__ import annotations

from core.service.delivery.failures import AFTER_FAILURE, after_failure
from core.service.ports.contract import (
    ChatLost,
    ChatMoved,
    NotAllowed,
    PermanentError,
    TransientError,
    UnknownOutcome,
    Unreachable,
)


def test_every_kind_of_error_reaches_its_own_row() -> None:
    for kind, after in AFTER_FAILURE:
        assert after_failure(kind.__new__(kind)) is after, kind.__name__


def test_what_each_kind_of_error_leaves_behind() -> None:
    def status(kind: type[Exception]) -> str:
        return after_failure(kind.__new__(kind)).status

    assert status(ChatMoved) == status(TransientError) == "pending"  # tried again
    assert status(UnknownOutcome) == "unknown"  # may have arrived: never sent twice
    assert status(ChatLost) == "lost"  # posted when the bot can write there again
    assert status(NotAllowed) == "norights"  # done when the bot has the right again
    assert status(Unreachable) == "unreachable"  # sent when the reader writes
    assert status(PermanentError) == status(KeyError) == "failed"  # the host is told


def test_a_chat_in_trouble_keeps_its_order() -> None:
    held = {kind for kind, after in AFTER_FAILURE if after.holds_chat}
    assert held == {ChatMoved, TransientError, ChatLost}
