"""The adapter as the service sees it. The contract is closed: what every adapter has is
`Adapter`; what only some can do is declared by the capability protocols after it
(`SendsPictures`, `CountsParts`, `SendsInParallel`, `Resends`, `ReportsHealth`,
`CatchesUp`), checked with `isinstance`, never probed by name. An adapter that also
receives is a `PlatformAdapter`, started with the runtime's `Handler`. What they exchange is
contract.py.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .contract import (
    Ballot,
    ChatEvent,
    Incoming,
    Keyboard,
    Notice,
    Outgoing,
    Picture,
    Post,
    RateLimits,
    Silence,
    TeamRoom,
)
from .howto import Wording
from .membership import Membership

if TYPE_CHECKING:
    from .adapter_store import AdapterStore
    from .catchup import CatchUp


class Adapter(Protocol):
    """What the outbox needs of every platform: its `wording` (how people type a command
    there, "!" on Matrix, and its how-to texts, see core/service/ports/howto.py), its rate
    `limits`, and one method per kind of message and order, each delivering it or raising
    TransientError / PermanentError / Unreachable (and the others above). What only some
    platforms can do is a capability of its own (below)."""

    platform: str
    limits: RateLimits
    wording: Wording

    async def send_post(self, post: Post) -> None:
        """Post a text, or edit the earlier version with its `replace` key."""
        ...

    async def send_ballot(self, ballot: Ballot) -> None:
        """Open the group's vote, show its tally, or close it (no options)."""
        ...

    async def send_keyboard(self, keyboard: Keyboard) -> None:
        """Post a message with buttons, or edit the earlier version."""
        ...

    async def silence(self, order: Silence) -> None:
        """Apply a mute or unmute."""
        ...

    async def team(self, order: TeamRoom) -> None:
        """Create or update a team room, or return where the platform has none."""
        ...


@runtime_checkable
class SendsPictures(Protocol):
    """Shows pictures; an adapter without this is handed a picture's caption as a `Post`."""

    async def send_picture(self, picture: Picture) -> None: ...


@runtime_checkable
class CountsParts(Protocol):
    """Knows how many platform messages one outgoing message becomes (a long text split in
    parts), for the rate limits; without this every message costs one."""

    def cost(self, message: Outgoing) -> int: ...


@runtime_checkable
class SendsInParallel(Protocol):
    """Takes several sends at once, to different chats (`parallel`: how many its connection
    pool carries beside what the receiving side needs). Without this one send goes at a
    time; the outbox never sends two rows of one chat at once."""

    @property
    def parallel(self) -> int: ...


@runtime_checkable
class Resends(Protocol):
    """Can tell whether sending a message again that may already have arrived (a crash came
    between handing it over and marking it sent) is harmless: an edit of a known message,
    or a send the platform deduplicates (`chat_ref` is the stored ref of the group, or of
    the reader). Without this, such a message is given up rather than maybe sent twice."""

    async def can_resend(self, chat_ref: str, replace: str | None) -> bool: ...


@runtime_checkable
class ReportsHealth(Protocol):
    """Says whether the platform answers now (`connected`: the outbox waits for it, /healthz
    says so) and how its receiving fares (`receiving`, numbers for /healthz: a poller's
    backoff, the updates not yet confirmed; empty when there is nothing to say). Without
    this a platform counts as always connected."""

    @property
    def connected(self) -> bool: ...

    @property
    def receiving(self) -> Mapping[str, float]: ...


def connected(adapter: Adapter) -> bool:
    """Whether the platform answers now (one that does not report it always does)."""
    return adapter.connected if isinstance(adapter, ReportsHealth) else True


@runtime_checkable
class CatchesUp(Protocol):
    """A receiver that can tell when it has caught up with the updates its platform queued
    while the process was away (see core/service/ports/catchup.py): with `catches_up` true it is
    handed the catch-up at start and must report to it."""

    @property
    def catches_up(self) -> bool: ...


Handler = Callable[[Incoming | ChatEvent | Membership], Awaitable[Notice | None]]


class PlatformAdapter(Adapter, Protocol):
    """An adapter that also receives: started with the runtime's handler, its own store
    (what it keeps across restarts, see `AdapterStore`) and the catch-up it reports to if it
    `CatchesUp`; stopped before the database closes."""

    async def start(self, handle: Handler, store: AdapterStore, catch_up: CatchUp) -> None:
        ...

    async def stop(self) -> None: ...
