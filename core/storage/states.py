"""The states of an outbox row and of a deadline, and every change of state either may make.

Everything that decides whether a row may pass from one state to another lives in this file
(as h11's `_state.py` does for a connection): the service names the state it moves a row to
and asks `moved`, which answers the new state or refuses a change the tables do not allow.
A bulk update asks the same question once for all its rows. The stored strings are the
enums' values, the same strings the rows always held.

An outbox row is written `pending` and handed to its adapter as `sending` (committed before
the send, so that a crash cannot post it twice). From `sending` it ends `sent`, goes back to
`pending` to be tried again, or settles by what the platform answered: `failed` for good,
`unknown` (it may have arrived), `lost` (the bot cannot write in the chat: posted when it
can again), `norights` (done when the bot has the right again) or `unreachable` (sent when
the reader writes to the bot). A `pending` row a newer version of the same message replaces
is `superseded`, never sent.

A deadline is of one kind for its whole life: a window's close, the reminder before it, or
the give-up of a game whose group stayed unreachable. Each is `pending` until it fires or is
void (a window closed early, the game ended, the group came back)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TypeVar


class GameStatus(StrEnum):
    """Where a game's row is in its life (the stored strings are the values)."""

    LOBBY = "lobby"  # sign-up is open
    RUNNING = "running"
    ENDED = "ended"  # played to its end
    CANCELLED = "cancelled"  # ended before it was decided: by its host, or given up


#: the games that are not over: a sign-up, or a game being played
CURRENT = (GameStatus.LOBBY, GameStatus.RUNNING)


class OutboxState(StrEnum):
    PENDING = "pending"  # waits for its turn (or for its retry)
    SENDING = "sending"  # handed to the adapter; its outcome not written yet
    SENT = "sent"
    SUPERSEDED = "superseded"  # a newer version of the same message was sent instead
    FAILED = "failed"  # for good: the host was told
    UNKNOWN = "unknown"  # may or may not have arrived: never sent again
    LOST = "lost"  # the bot cannot write in the chat: posted when it can again
    NORIGHTS = "norights"  # the bot lacks a right: done when it has it again
    UNREACHABLE = "unreachable"  # the reader has not opened a private chat yet
    IMPOSSIBLE = "impossible"  # nobody may do it there (mute a room's creator): the host told


class DeadlineKind(StrEnum):
    CLOSE = "close"  # the game's current window closes
    REMIND = "remind"  # those the window still waits for are reminded
    GIVE_UP = "giveup"  # the game's group stayed unreachable too long: cancel the game
    LEAVE = "leave"  # a player who left the game's chat is not back: he leaves the game


class DeadlineState(StrEnum):
    PENDING = "pending"
    FIRED = "fired"
    VOID = "void"


#: from each outbox state, the states a row may move to (none: the row is done)
OUTBOX_MOVES: Mapping[OutboxState, frozenset[OutboxState]] = {
    OutboxState.PENDING: frozenset({
        OutboxState.SENDING,  # handed to its adapter
        OutboxState.SUPERSEDED,  # a newer version of it waits too
        OutboxState.LOST,  # its group chat was lost before it went
    }),
    OutboxState.SENDING: frozenset({
        OutboxState.SENT,
        OutboxState.PENDING,  # to be tried again (or resent after a crash, if harmless)
        OutboxState.FAILED,
        OutboxState.UNKNOWN,
        OutboxState.LOST,
        OutboxState.NORIGHTS,
        OutboxState.UNREACHABLE,
        OutboxState.IMPOSSIBLE,
    }),
    OutboxState.LOST: frozenset({OutboxState.PENDING}),  # the bot may write there again
    OutboxState.NORIGHTS: frozenset({OutboxState.PENDING}),  # the bot has the right again
    OutboxState.UNREACHABLE: frozenset({
        OutboxState.PENDING,  # the reader wrote to the bot
        OutboxState.SUPERSEDED,  # ... after the window it asked about had closed
        OutboxState.FAILED,  # ... after its game was over
    }),
    OutboxState.SENT: frozenset(),
    OutboxState.SUPERSEDED: frozenset(),
    OutboxState.FAILED: frozenset(),
    OutboxState.IMPOSSIBLE: frozenset(),
    OutboxState.UNKNOWN: frozenset(),
}

#: from each deadline state, the states it may move to, whatever its kind
DEADLINE_MOVES: Mapping[DeadlineState, frozenset[DeadlineState]] = {
    DeadlineState.PENDING: frozenset({DeadlineState.FIRED, DeadlineState.VOID}),
    DeadlineState.FIRED: frozenset(),
    DeadlineState.VOID: frozenset(),
}

#: outbox rows not posted yet, that may still be
WAITING = (OutboxState.PENDING, OutboxState.SENDING, OutboxState.LOST)
#: outbox rows that reached their reader, or may have, or never will
SETTLED = (OutboxState.SENT, OutboxState.UNKNOWN, OutboxState.FAILED)

State = TypeVar("State", OutboxState, DeadlineState)


class ForbiddenMove(RuntimeError):
    """A change of state the tables do not allow: a bug in the caller."""


def moved(state: str, to: State) -> State:
    """The state `to`, if a row in `state` may move there; otherwise `ForbiddenMove`."""
    allowed: frozenset[StrEnum]
    if isinstance(to, OutboxState):
        allowed = OUTBOX_MOVES[OutboxState(state)]
    else:
        allowed = DEADLINE_MOVES[DeadlineState(state)]
    if to not in allowed:
        raise ForbiddenMove(f"{type(to).__name__}: {state} -> {to.value}")
    return to
