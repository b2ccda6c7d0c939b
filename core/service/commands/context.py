"""What the service's rooms (lobby, private chats, reach, confirmations) may use of the
service and of each other, as protocols: `GameService` implements `ServiceContext` and hands
itself to each room, so that no room imports the service that imports it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol

from core.storage.models import Chat, GameRecord, Identity

from ..games.deadline_times import GameDefaults
from ..games.running import Games
from ..messages.button_commands import Join, Leave
from ..messages.payloads import PostPayload
from ..ports.clock import Clock
from ..ports.contract import Mention, Notice
from ..ports.howto import Wording
from ..ports.replies import Reply
from ..telling.names import Roster


class LobbyActions(Protocol):
    """What the other rooms ask of the lobby."""

    async def cancel(self, row: GameRecord, chat: Chat, person: Identity) -> None: ...
    async def end_unreachable(self, person: Identity) -> None: ...
    async def not_elsewhere(self, person: Identity) -> None: ...
    async def move_seat(self, row: GameRecord, pid: str, newcomer: Identity) -> Identity: ...
    async def group_settings(self, chat: Chat, row: GameRecord | None) -> PostPayload: ...
    async def press(self, what: Join | Leave, row: GameRecord, person: Identity) -> None: ...
    async def handle(self, word: str, rest: str, chat: Chat, person: Identity,
                     admin: bool) -> bool: ...


class TimerActions(Protocol):
    """The host's timers: a room of group commands (True when it knew the word), and
    `/timer` in his private chat."""

    async def handle(self, word: str, rest: str, chat: Chat, person: Identity,
                     admin: bool) -> bool: ...
    async def from_private(self, rest: str, person: Identity) -> None: ...


class ConfirmActions(Protocol):
    """The questions a confirmation button answers."""

    async def ask_flee(self, person: Identity, chat: Chat | None = None) -> None: ...
    async def ask_endgame(self, row: GameRecord, host: Identity) -> None: ...


class HostActions(Protocol):
    """The host powers, as the private chat hands them on."""

    async def from_private(self, word: str, rest: str, person: Identity,
                           mentioned: Sequence[Mention] = ()) -> None: ...


class ButtonActions(Protocol):
    """A button pressed by a typed command (a platform whose buttons arrive as text)."""

    async def press(self, token: str, person: Identity,
                    in_private: bool) -> Reply | Notice | None: ...


class MenuActions(Protocol):
    """The settings menu, as the private chat opens it."""

    async def open_private(self, person: Identity) -> None: ...


class ServiceContext(Protocol):
    """The service as its rooms see it."""

    @property
    def clock(self) -> Clock: ...
    @property
    def defaults(self) -> GameDefaults: ...
    @property
    def rng(self) -> random.Random: ...
    @property
    def games(self) -> Games: ...
    @property
    def lobby(self) -> LobbyActions: ...
    @property
    def timers(self) -> TimerActions: ...
    @property
    def confirmations(self) -> ConfirmActions: ...
    @property
    def host_powers(self) -> HostActions: ...
    @property
    def buttons(self) -> ButtonActions: ...
    @property
    def menu(self) -> MenuActions: ...
    @property
    def wordings(self) -> Mapping[str, Wording]: ...

    async def current_game(self, chat: Chat) -> GameRecord | None: ...
    async def roster(self, row: GameRecord,
                     mentioned: Sequence[Mention] = ()) -> Roster: ...
