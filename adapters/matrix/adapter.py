"""The Matrix adapter: the composition root of its parts, and the service's `Adapter` methods.

It logs in, then builds each part with the collaborators it needs (`compose`), none with
the adapter: what is known of the rooms (protocol/room_state.py, protocol/directory.py),
the sync (client/sync.py) that routes each change of a room's state to the parts that care
(client/routes.py), what people write, react and answer (client/receive.py), posting each
kind of message (client/send.py), the private rooms (client/rooms.py), the team rooms
(client/teams.py), the game rooms' standing (client/standing.py) and muting
(client/muting.py). The store the service hands over at start goes to each part that keeps
something (store.py).

One event loop: the sync runs as a task started by `start` and cancelled by `stop`, beside
Telegram and the scheduler. nio never sleeps on a 429 (`max_limit_exceeded=0`): the outbox
retries after `retry_after_ms`. Encrypted rooms are read and written through nio's
end-to-end support and the key store in `store_path` (see client/crypto.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass

from nio import AsyncClient, AsyncClientConfig, LoginResponse, WhoamiResponse

from core.service import (
    AdapterStore,
    Ballot,
    CatchUp,
    Handler,
    Keyboard,
    LoginRefused,
    Picture,
    Post,
    Silence,
    TeamRoom,
    Wording,
)

from .client.cross_signing import CrossSigning, KeyFile, Standing, key_file_path
from .client.crypto import Crypto, close_store, open_store
from .client.invites import Invites
from .client.levels import Levels
from .client.muting import Muting
from .client.receive import Receiver
from .client.rooms import PrivateRooms
from .client.routes import Routes
from .client.send import Sender
from .client.standing import Standings
from .client.sync import Link, Readers, Syncer
from .client.teams import TeamRooms
from .client.telling import Teller
from .howto import HOWTO
from .protocol import content
from .protocol.directory import Directory
from .protocol.errors import NETWORK_ERRORS, Failed, network, translate
from .protocol.incoming import PLATFORM
from .protocol.room_state import RoomState
from .protocol.seen import Seen
from .settings import MatrixSettings
from .store import MatrixStore

log = logging.getLogger(__name__)
# what a homeserver answers to credentials that will never work
REFUSED = ("M_FORBIDDEN", "M_UNKNOWN_TOKEN", "M_USER_DEACTIVATED", "M_INVALID_USERNAME")


@dataclass(frozen=True)
class Parts:
    """The parts that need the logged-in client and the service's store."""

    store: MatrixStore
    rooms: PrivateRooms
    teams: TeamRooms
    standing: Standings
    sender: Sender
    syncer: Syncer
    muting: Muting


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
        self.link = Link()
        self.crypto: Crypto | None = None  # end-to-end encryption, when on
        self.cross_signing: Standing | None = None  # how the device's signature stands
        self.state = RoomState()
        self.directory = Directory(self.state)
        self.seen = Seen()
        self.parts: Parts | None = None  # built at start
        self._task: asyncio.Task[None] | None = None

    @property
    def connected(self) -> bool:
        """The last sync answered (for /healthz)."""
        return self.link.connected

    # ------------------------------------------------------------------ lifecycle
    async def start(self, handle: Handler, kept: AdapterStore, catch_up: CatchUp) -> None:
        """Log in, read where the last run stopped, and sync once before returning (pending
        invites and missed commands are handled by then); then keep syncing in a task."""
        store = MatrixStore(kept)
        self.link.stopping = False
        encrypted = bool(self.settings.encryption and self.settings.store_path)
        if encrypted:
            open_store(str(self.settings.store_path))
        config = AsyncClientConfig(max_limit_exceeded=0, max_timeouts=0,
                                   store_sync_tokens=False, encryption_enabled=encrypted,
                                   request_timeout=self.settings.sync_timeout + 30)
        self.client = client = AsyncClient(self.settings.homeserver, self.user_id,
                                           device_id=self.settings.device_id or "",
                                           store_path=self.settings.store_path or "",
                                           config=config)
        try:
            await self._login(client, store)
            self.crypto = Crypto(client, self.settings.key_wait) if client.olm else None
            if self.crypto is not None:
                await self.crypto.upload_keys()
                if self.crypto.upload_refused is None:
                    await self._cross_sign(client)
                self.crypto.restore(await store.load("held", self.user_id) or [])
            txn_prefix = await store.load("txn", self.user_id) or secrets.token_hex(4)
            await store.save(txn_prefix, "txn", self.user_id)
            profile = await client.get_displayname(self.user_id)
            self.display_name = getattr(profile, "displayname", None)
            self.parts = parts = self.compose(client, store, Teller(handle, self.directory),
                                              catch_up, txn_prefix)
            await parts.syncer.load()
            await parts.rooms.load()
            await parts.teams.load()
            await parts.syncer.once(timeout=0)
        except BaseException:
            await self._close()
            raise
        self._task = asyncio.create_task(parts.syncer.loop(), name="matrix-sync")
        self.link.connected = True
        log.info("matrix: connected as %s", self.user_id)

    async def _cross_sign(self, client: AsyncClient) -> None:
        """The device signed by the account's cross-signing keys (client/cross_signing.py);
        a failure leaves it unsigned until the next start, and everything else working."""
        path = key_file_path(self.settings.store_path, self.settings.cross_signing_path)
        if path is None:
            return
        signing = CrossSigning(client, KeyFile(path), self.settings.password)
        try:
            self.cross_signing = await signing.ensure()
        except (Failed, RuntimeError, *NETWORK_ERRORS) as err:
            log.warning("matrix: the device was not cross-signed this time: %s", err)
        except (OSError, ValueError, KeyError) as err:  # never replaced: it is the identity
            log.error("matrix: the cross-signing key file %s cannot be used (%s: %s); the "
                      "device stays unsigned", path, type(err).__name__, err)

    def compose(self, client: AsyncClient, store: MatrixStore, teller: Teller,
                catch_up: CatchUp, txn_prefix: str) -> Parts:
        """Each part with what it needs, in the order they need each other: one way, from
        the room state up to the sync."""
        state, directory, settings, crypto = self.state, self.directory, self.settings, \
            self.crypto
        rooms = PrivateRooms(client, state, directory, store, settings)
        teams = TeamRooms(client, state, directory, store, self.user_id)
        standing = Standings(client, state, directory, store, self.user_id, teller)
        routes = Routes(state, directory, rooms, standing)
        levels = Levels(client, state, routes)
        sender = Sender(client, state, levels, rooms, standing, crypto, store, settings,
                        txn_prefix)
        receiver = Receiver(client, directory=directory, routes=routes, levels=levels,
                            rooms=rooms, sender=sender, crypto=crypto, seen=self.seen,
                            teller=teller, store=store, settings=settings,
                            display_name=self.display_name)
        invites = Invites(client, directory, rooms, standing, teller, settings, levels)
        readers = Readers(routes, receiver, invites, standing, rooms, teller)
        syncer = Syncer(client, state, directory, readers, crypto, self.seen, store, settings,
                        self.link, catch_up)
        return Parts(store, rooms, teams, standing, sender, syncer,
                     Muting(client, state, levels, store, self.user_id))

    async def stop(self) -> None:
        """Stop syncing: a long poll is cancelled, a sync being handed over finishes first
        (and stores its token), then the connection closes."""
        self.link.stopping = True
        self.link.connected = False
        task, self._task = self._task, None
        if task is not None:
            if self.parts is not None and not self.parts.syncer.busy:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close()

    async def _close(self) -> None:
        if self.client is not None:
            await self.client.close()
            close_store(self.client)

    async def _login(self, client: AsyncClient, store: MatrixStore) -> None:
        settings = self.settings
        if settings.access_token:
            client.access_token = settings.access_token
            who = await client.whoami()
            if not isinstance(who, WhoamiResponse):
                if getattr(who, "status_code", None) in REFUSED:
                    raise LoginRefused(f"matrix: the access token was refused: {who}")
                raise RuntimeError(f"matrix: the access token was refused: {who}")
            # the token belongs to one device, whatever is configured; its key store opens
            # with the login, so the device must be known first
            device = who.device_id or settings.device_id or ""
            if not device and client.config.encryption_enabled:
                raise RuntimeError("matrix: set device_id (the token's device) for encryption")
            client.restore_login(self.user_id, device, settings.access_token)
            return
        device = settings.device_id or await store.load("device", self.user_id)
        if device:
            client.device_id = device
        response = await client.login(settings.password, device_name=settings.device_name)
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
        return self.parts is None or not self.parts.syncer.busy

    @property
    def backfilled(self) -> int:
        """Events fetched from /messages for gaps (limited syncs)."""
        return 0 if self.parts is None else self.parts.syncer.backfilled

    def has_seen(self, event_id: str) -> bool:
        """Whether this event was read (and handed over, if it was for the service)."""
        return event_id in self.seen

    def _parts(self) -> Parts:
        if self.parts is None:
            raise RuntimeError("matrix: the adapter was not started")
        return self.parts

    # ------------------------------------------------------------------ the outbox's
    async def send_post(self, post: Post) -> None:
        await self._parts().sender.send_post(post)

    async def send_ballot(self, ballot: Ballot) -> None:
        await self._parts().sender.send_ballot(ballot)

    async def send_keyboard(self, keyboard: Keyboard) -> None:
        await self._parts().sender.send_keyboard(keyboard)

    async def send_picture(self, picture: Picture) -> None:
        await self._parts().sender.send_picture(picture)

    async def can_resend(self, chat_ref: str, replace: str | None) -> bool:
        """Every send carries a stable transaction id (its outbox row's; a first post its
        message's, see client/send.py): the homeserver drops a repeat."""
        return True

    async def team(self, order: TeamRoom) -> None:
        """A team chat as a room of its own (see client/teams.py); when the game is over the bot
        says goodbye there and leaves."""
        parts = self._parts()
        try:
            room_id = parts.teams.room_of(order.key)
            if not order.closed:
                await parts.teams.update(order)
            elif room_id is not None:
                await parts.sender.send_event(room_id, "m.room.message",
                                              content.message(order.about),
                                              parts.sender.txn(order.outbox_id))
                await parts.teams.close(order.key, room_id)
        except Failed as failed:
            raise translate(failed.response, private=False) from failed
        except NETWORK_ERRORS as err:
            raise network(err) from err

    async def silence(self, order: Silence) -> None:
        """Mute or unmute (see client/muting.py); an admin posting anonymously is nobody to mute."""
        if order.user.anonymous:
            return
        try:
            await self._parts().muting.silence(order)
        except Failed as failed:
            raise translate(failed.response, private=False) from failed
        except NETWORK_ERRORS as err:
            raise network(err) from err
