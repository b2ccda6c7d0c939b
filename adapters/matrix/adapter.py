"""The Matrix adapter: logs in, starts and stops, and holds the parts that each do one job:
the sync (sync.py), what is known of the rooms' state (state.py), what people write, react
and answer (receive.py), posting each kind of message (send.py), the private rooms
(rooms.py), the team rooms (teams.py), the game rooms' standing (standing.py) and muting
(power.py).

One event loop: the sync runs as a task started by `start` and cancelled by `stop`, beside
Telegram and the scheduler. nio never sleeps on a 429 (`max_limit_exceeded=0`): the outbox
retries after `retry_after_ms`. Encrypted rooms are read and written through nio's
end-to-end support and the key store in `store_path` (see crypto.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass, field

from nio import AsyncClient, AsyncClientConfig, LoginResponse, WhoamiResponse

from core.service import (
    AdapterStore,
    Ballot,
    CatchUp,
    ChatEvent,
    Handler,
    Keyboard,
    LoginRefused,
    Picture,
    Post,
    RateLimits,
    Silence,
    TeamRoom,
    Wording,
)

from . import content, power, store
from .crypto import Crypto, close_store, open_store
from .errors import NETWORK_ERRORS, Failed, network, translate
from .howto import HOWTO
from .incoming import PLATFORM
from .receive import Receiver
from .rooms import PrivateRooms
from .send import Sender
from .standing import Standings
from .state import RoomState
from .sync import Syncer
from .teams import TeamRooms

log = logging.getLogger(__name__)
# what a homeserver answers to credentials that will never work
REFUSED = ("M_FORBIDDEN", "M_UNKNOWN_TOKEN", "M_USER_DEACTIVATED", "M_INVALID_USERNAME")

# Synapse's default `rc_message`: 0.2 messages a second per account, edits included (exempt
# the bot with the admin API's override_ratelimit and raise this in the settings).
LIMITS = RateLimits(overall=0.2)


@dataclass(frozen=True)
class MatrixSettings:
    homeserver: str  # https://matrix.example.org
    user_id: str  # @nightfall:example.org
    password: str | None = None
    access_token: str | None = None
    device_id: str | None = None  # else the one of the first password login, remembered
    device_name: str = "Nightfall"
    store_path: str | None = None  # nio's key store: keep it as long as the device id
    encryption: bool = True  # read and write encrypted rooms (needs the store_path)
    encrypt_private: bool = False  # the host wants private rooms encrypted (see rooms.py)
    allow: tuple[str, ...] = ()  # who may invite the bot: "@user:server" or ":server"; none
    key_wait: float = 60.0  # seconds an undecryptable event waits for its key, then is told
    invite_wait: float = 600.0  # seconds until a player is reminded of his private room
    sync_timeout: float = 30.0  # seconds a long-poll sync waits for news
    timeline_limit: int = 50  # events per room per sync; more is fetched from /messages
    notices: bool = True  # answer a private choice ("noted", or why not) in the room
    # `@room` the vote's opening and the results, where the room's power levels let the bot
    # (`notifications.room`, 50 by default): else they notify as plain messages do
    room_mentions: bool = True
    limits: RateLimits = field(default=LIMITS)


class MatrixAdapter:
    platform = PLATFORM
    # Element takes `/join` as its own command and asks about every other `/word`: the
    # bot's texts say `!vote` (a `/vote` that a client lets through works as well)
    wording = Wording("!", HOWTO)  # its how-to texts (howto.py)
    # the sync since the stored token brings everything the homeserver queued meanwhile:
    # the first one applied after a start or an outage is caught up
    catches_up = True

    def __init__(self, settings: MatrixSettings) -> None:
        if not (settings.password or settings.access_token):
            raise ValueError("Matrix: a password or an access token is needed")
        self.settings = settings
        self.limits = settings.limits
        self.user_id = settings.user_id
        self.client: AsyncClient | None = None
        self.display_name: str | None = None
        self.connected = False
        self.catch_up: CatchUp | None = None  # handed over at start
        self.stopping = False
        self.handle: Handler | None = None
        self.txn_prefix = ""  # this database's prefix for transaction ids (outbox ids restart)
        self.crypto: Crypto | None = None  # end-to-end encryption, when on
        self._task: asyncio.Task[None] | None = None
        self.state = RoomState(self)
        self.syncer = Syncer(self)
        self.receiver = Receiver(self)
        self.sender = Sender(self)
        self.rooms = PrivateRooms(self)
        self.standing = Standings(self)
        self.teams = TeamRooms(self)

    # ------------------------------------------------------------------ lifecycle
    async def start(self, handle: Handler, kept: AdapterStore, catch_up: CatchUp) -> None:
        """Log in, read where the last run stopped, and sync once before returning (pending
        invites and missed commands are handled by then); then keep syncing in a task."""
        self.handle = handle
        self.catch_up = catch_up
        store.use(kept)
        self.stopping = False
        encrypted = bool(self.settings.encryption and self.settings.store_path)
        if encrypted:
            open_store(str(self.settings.store_path))
        config = AsyncClientConfig(max_limit_exceeded=0, max_timeouts=0,
                                   store_sync_tokens=False, encryption_enabled=encrypted,
                                   request_timeout=self.settings.sync_timeout + 30)
        self.client = AsyncClient(self.settings.homeserver, self.user_id,
                                  device_id=self.settings.device_id or "",
                                  store_path=self.settings.store_path or "", config=config)
        try:
            await self._login()
            self.crypto = Crypto(self.client, self.settings.key_wait) \
                if self.client.olm else None
            if self.crypto is not None:
                await self.crypto.upload_keys()
                self.crypto.restore(await store.load("held", self.user_id) or [])
            await self.syncer.load()
            await self.rooms.load()
            await self.teams.load()
            self.txn_prefix = await store.load("txn", self.user_id) or secrets.token_hex(4)
            await store.save(self.txn_prefix, "txn", self.user_id)
            profile = await self.client.get_displayname(self.user_id)
            self.display_name = getattr(profile, "displayname", None)
            await self.syncer.once(timeout=0)
        except BaseException:
            await self._close()
            raise
        self._task = asyncio.create_task(self.syncer.loop(), name="matrix-sync")
        self.connected = True
        log.info("matrix: connected as %s", self.user_id)

    async def stop(self) -> None:
        """Stop syncing: a long poll is cancelled, a sync being handed over finishes first
        (and stores its token), then the connection closes."""
        self.stopping = True
        self.connected = False
        task, self._task = self._task, None
        if task is not None:
            if not self.syncer.busy:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close()

    async def _close(self) -> None:
        if self.client is not None:
            await self.client.close()
            close_store(self.client)

    async def _login(self) -> None:
        assert self.client is not None
        settings = self.settings
        if settings.access_token:
            self.client.access_token = settings.access_token
            who = await self.client.whoami()
            if not isinstance(who, WhoamiResponse):
                if getattr(who, "status_code", None) in REFUSED:
                    raise LoginRefused(f"matrix: the access token was refused: {who}")
                raise RuntimeError(f"matrix: the access token was refused: {who}")
            # the token belongs to one device, whatever is configured; its key store opens
            # with the login, so the device must be known first
            device = who.device_id or settings.device_id or ""
            if not device and self.client.config.encryption_enabled:
                raise RuntimeError("matrix: set device_id (the token's device) for encryption")
            self.client.restore_login(self.user_id, device, settings.access_token)
            return
        device = settings.device_id or await store.load("device", self.user_id)
        if device:
            self.client.device_id = device
        response = await self.client.login(settings.password, device_name=settings.device_name)
        if not isinstance(response, LoginResponse):
            if getattr(response, "status_code", None) in REFUSED:
                raise LoginRefused(f"matrix: the login was refused: {response}")
            raise RuntimeError(f"matrix: login failed: {response}")
        await store.save(response.device_id, "device", self.user_id)

    @property
    def receiving(self) -> dict[str, float]:
        """Nothing to add for /healthz: a failing sync shows as not `connected`."""
        return {}

    @property
    def idle(self) -> bool:
        """No sync is being handed to the service (for a graceful stop, and tests)."""
        return not self.syncer.busy

    @property
    def backfilled(self) -> int:
        """Events fetched from /messages for gaps (limited syncs)."""
        return self.syncer.backfilled

    def has_seen(self, event_id: str) -> bool:
        return self.syncer.has_seen(event_id)

    async def tell(self, event: ChatEvent) -> None:
        """News about a game room itself (see standing.py)."""
        assert self.handle is not None
        await self.handle(event)

    # ------------------------------------------------------------------ the outbox's
    async def send_post(self, post: Post) -> None:
        await self.sender.send_post(post)

    async def send_ballot(self, ballot: Ballot) -> None:
        await self.sender.send_ballot(ballot)

    async def send_keyboard(self, keyboard: Keyboard) -> None:
        await self.sender.send_keyboard(keyboard)

    async def send_picture(self, picture: Picture) -> None:
        await self.sender.send_picture(picture)

    async def can_resend(self, chat_ref: str, replace: str | None) -> bool:
        """Every send carries a stable transaction id (its outbox row's; a first post its
        message's, see send.py): the homeserver drops a repeat."""
        return True

    async def team(self, order: TeamRoom) -> None:
        """A team chat as a room of its own (see teams.py); when the game is over the bot
        says goodbye there and leaves."""
        try:
            room_id = self.teams.by_key.get(order.key)
            if not order.closed:
                await self.teams.update(order)
            elif room_id is not None:
                await self.sender.send_event(room_id, "m.room.message",
                                             content.message(order.about),
                                             self.sender.txn(order.outbox_id))
                await self.teams.close(order.key, room_id)
        except Failed as failed:
            raise translate(failed.response, private=False) from failed
        except NETWORK_ERRORS as err:
            raise network(err) from err

    async def silence(self, order: Silence) -> None:
        """Mute or unmute (see power.py); an admin posting anonymously is nobody to mute."""
        if order.user.anonymous:
            return
        try:
            await power.silence(self, order)
        except Failed as failed:
            raise translate(failed.response, private=False) from failed
        except NETWORK_ERRORS as err:
            raise network(err) from err
