"""The game service: lobby, persistence, deadlines and delivery around the pure engine.

Its modules stand in layers, each importing only from its own layer and the ones below it
(tests/unit/test_service_layers.py holds this), bottom to top:

- `ports/` — the contract with the adapters and front ends: what they exchange with the
  service, what they may keep, clocks, answers to bad input;
- `rows/` — how a game lives in the database: locked, replayed, read once and written together;
- `messages/` — what will be said: typed outbox payloads, the outbox, the service's own texts;
- `telling/` — game facts made into messages and UI for their readers;
- `delivery/` — the outbox handed to the platforms, within their limits, through outages;
- `games/` — running games: one command applied in a transaction, deadlines and their times;
- `commands/` — updates in: the game service and the rooms it hands them to;
- `runtime.py` — one process: the service, its scheduler and deliverer, and the adapters.

What an adapter needs of the service is re-exported here, and adapters import it from here
(`from core.service import ChatRef, Post`) rather than from the layer that defines it.
"""

from core.engine.ruleset import Catalog

from .ports.adapter import (
    Adapter,
    CatchesUp,
    CountsParts,
    Handler,
    PlatformAdapter,
    ReportsHealth,
    Resends,
    SendsInParallel,
    SendsPictures,
)
from .ports.adapter_store import (
    NAME_LENGTH,
    AdapterStore,
    PlatformMessage,
    database_watch,
    is_outage,
)
from .ports.catchup import CatchUp
from .ports.contract import (
    Ballot,
    ButtonOut,
    ChatChange,
    ChatEvent,
    ChatLost,
    ChatMoved,
    ChatRef,
    Command,
    Incoming,
    Invited,
    Keyboard,
    LoginRefused,
    Mention,
    NotAllowed,
    Notice,
    Order,
    Outgoing,
    PermanentError,
    Picture,
    Post,
    RateLimits,
    Reader,
    Silence,
    Situation,
    TeamKey,
    TeamRoom,
    TransientError,
    UnknownOutcome,
    Unreachable,
    UserRef,
)
from .ports.howto import HowTo, Wording
from .ports.membership import MemberBack, MemberLeft, Membership
from .ports.refusals import Untouchable
from .ports.standing import Lack, LostReason

__all__ = [
    "NAME_LENGTH",
    "Adapter",
    "AdapterStore",
    "Ballot",
    "ButtonOut",
    "Catalog",
    "CatchUp",
    "CatchesUp",
    "ChatChange",
    "ChatEvent",
    "ChatLost",
    "ChatMoved",
    "ChatRef",
    "Command",
    "CountsParts",
    "Handler",
    "HowTo",
    "Incoming",
    "Invited",
    "Keyboard",
    "Lack",
    "LoginRefused",
    "LostReason",
    "MemberBack",
    "MemberLeft",
    "Membership",
    "Mention",
    "NotAllowed",
    "Notice",
    "Order",
    "Outgoing",
    "PermanentError",
    "Picture",
    "PlatformAdapter",
    "PlatformMessage",
    "Post",
    "RateLimits",
    "Reader",
    "ReportsHealth",
    "Resends",
    "SendsInParallel",
    "SendsPictures",
    "Silence",
    "Situation",
    "TeamKey",
    "TeamRoom",
    "TransientError",
    "UnknownOutcome",
    "Unreachable",
    "Untouchable",
    "UserRef",
    "Wording",
    "database_watch",
    "is_outage",
]
