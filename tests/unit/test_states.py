"""An outbox row and a deadline change state only as the one table allows (core/storage/
states.py), and the states are stored as the strings they always were."""

from __future__ import annotations

import pytest

from core.storage.states import (
    DEADLINE_MOVES,
    OUTBOX_MOVES,
    DeadlineKind,
    DeadlineState,
    ForbiddenMove,
    OutboxState,
    moved,
)


def test_the_stored_strings_are_those_of_earlier_versions():
    assert [s.value for s in OutboxState] == [
        "pending", "sending", "sent", "superseded", "failed", "unknown", "lost", "norights",
        "unreachable", "impossible"]
    assert [k.value for k in DeadlineKind] == ["close", "remind", "giveup", "leave"]
    assert [s.value for s in DeadlineState] == ["pending", "fired", "void"]


def test_every_state_has_its_row_in_the_table():
    assert set(OUTBOX_MOVES) == set(OutboxState)
    assert set(DEADLINE_MOVES) == set(DeadlineState)


def test_a_message_is_handed_over_before_it_is_sent():
    assert moved("pending", OutboxState.SENDING) is OutboxState.SENDING
    assert moved(OutboxState.SENDING, OutboxState.SENT) is OutboxState.SENT
    with pytest.raises(ForbiddenMove):
        moved("pending", OutboxState.SENT)


def test_a_sent_message_is_never_sent_again():
    for state in OutboxState:
        with pytest.raises(ForbiddenMove):
            moved(OutboxState.SENT, state)


def test_a_deadline_fires_or_is_void_once():
    assert moved("pending", DeadlineState.FIRED) is DeadlineState.FIRED
    assert moved("pending", DeadlineState.VOID) is DeadlineState.VOID
    with pytest.raises(ForbiddenMove):
        moved("fired", DeadlineState.VOID)
