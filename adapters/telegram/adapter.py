"""The Telegram adapter: receives updates (long polling or a webhook, see `receiving`) and
hands them to the runtime; sends, edits and mutes for the outbox (see `sending`).

The PTB `Application` is initialised and stopped by our runtime (never by `run_polling`), so
Telegram, Matrix and the scheduler share one event loop. Pacing is the outbox's job (PTB's
rate limiter is not used): Telegram's limits are declared in `LIMITS`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from urllib.parse import urlparse

from telegram import ChatPermissions, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, InvalidToken, RetryAfter, TelegramError
from telegram.ext import Application, ApplicationBuilder

from core.redaction import hide
from core.service import (
    AdapterStore,
    Ballot,
    CatchUp,
    ChatChange,
    ChatRef,
    Handler,
    Keyboard,
    LoginRefused,
    Outgoing,
    PermanentError,
    Picture,
    Post,
    RateLimits,
    Reader,
    Silence,
    TeamRoom,
    Wording,
)

from . import menus
from .errors import retry_seconds, translate_restrict_error
from .howto import HOWTO
from .incoming import (
    PLATFORM,
    anonymous_admin,
    from_callback,
    from_message,
    left_or_back,
    member_events,
    member_news,
    service_event,
)
from .keyboards import keyboard
from .receiving import Poller, WebhookServer
from .refs import anonymous_chat, chat_ids, user_id
from .sending import Sender, cost

log = logging.getLogger(__name__)

# Telegram's published flood limits: about one message a second in a chat (short bursts
# tolerated: three back to back), twenty a minute in a group, thirty a second in all. Edits
# spend the same budget. The overall burst stays well below thirty: our count of a send starts
# with it, Telegram's when it arrives, and sends in flight arrive in any order.
LIMITS = RateLimits(per_chat=1.0, overall=30.0, per_group_minute=20, chat_burst=3,
                    overall_burst=10)
CONNECTIONS = 32  # PTB's pool for every call but getUpdates
SENDING = 24  # of them the outbox's sends at once; the rest answers presses and asks Telegram
ADMIN_CACHE_SECONDS = 300.0
NOTICE_LIMIT = 200  # answerCallbackQuery text
# what the bot asks Telegram for: messages, their edits (they never count, as the rules say,
# and a vote in an edited message is withdrawn: the player must be told), pressed buttons,
# changes of its own membership (removed, muted, made admin), and people leaving the group or
# coming back (`chat_member`: Telegram sends it only to a bot that is an admin there; the
# group's "left"/"joined" service messages say the same wherever the bot is)
ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "my_chat_member",
                   "chat_member"]
MUTED = ChatPermissions.no_permissions()


@dataclass(frozen=True)
class TelegramSettings:
    token: str
    base_url: str | None = None  # another Bot API server (a local one, or the tests' fake)
    webhook_url: str | None = None  # set: receive by webhook instead of long polling
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    webhook_secret: str | None = None
    poll_timeout: int = 10
    request_timeout: float = 10.0  # seconds for Telegram's answer to one call
    limits: RateLimits = LIMITS


def quiet_http_logs() -> None:
    """httpx logs every request URL at INFO (Bot API URLs contain the token; they are masked
    anyway, but one line per request is noise)."""
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)


class TelegramAdapter:
    platform = PLATFORM
    wording = Wording("/", HOWTO, by_link=True)  # its how-to texts (howto.py)

    def __init__(self, settings: TelegramSettings) -> None:
        hide(settings.token)  # before PTB logs its API URL, which contains it
        quiet_http_logs()
        self.settings = settings
        self.limits = settings.limits
        timeout = settings.request_timeout
        builder: ApplicationBuilder = (  # type: ignore[type-arg]
            ApplicationBuilder().token(settings.token).updater(None)
            .read_timeout(timeout).write_timeout(timeout).connect_timeout(timeout)
            .pool_timeout(timeout).get_updates_read_timeout(timeout)
            .connection_pool_size(CONNECTIONS))
        if settings.base_url:
            builder = builder.base_url(settings.base_url)
        self.app: Application = builder.build()  # type: ignore[type-arg]
        self.store: AdapterStore | None = None  # handed over at start
        self.sender: Sender | None = None
        self._handle: Handler | None = None
        self._admins: dict[tuple[int, int], tuple[float, bool]] = {}
        self._anonymous_threads: dict[str, ChatRef] = {}  # anon ref → where they last posted
        self._in_flight = 0
        self._poller: Poller | None = None
        self._webhook: WebhookServer | None = None
        self.connected = False

    @property
    def parallel(self) -> int:
        """The outbox's sends at once (different chats), within PTB's connection pool."""
        return SENDING

    @property
    def catches_up(self) -> bool:
        """Long polling can tell when Telegram's queue is empty; a webhook cannot."""
        return not self.settings.webhook_url

    @property
    def receiving(self) -> dict[str, float]:
        """How the poller fares (for /healthz)."""
        poller = self._poller
        if poller is None:
            return {}
        return {"backoff": poller.backoff, "unconfirmed": poller.unconfirmed}

    # ------------------------------------------------------------------ lifecycle
    async def start(self, handle: Handler, store: AdapterStore, catch_up: CatchUp) -> None:
        """Connect (getMe); a token Telegram refuses raises `LoginRefused`, anything else
        (Telegram unreachable) is raised for the runtime to try again later. The poller
        tells `catch_up` when it has fetched what Telegram queued meanwhile."""
        self._handle = handle
        self.store = store
        self.sender = Sender(self.app.bot, store)
        try:
            await self.app.initialize()
        except InvalidToken as err:
            raise LoginRefused(f"telegram: the token was refused ({err})") from None
        await self.set_menus()
        await self.app.start()
        settings = self.settings
        if settings.webhook_url:
            path = urlparse(settings.webhook_url).path or "/"
            self._webhook = WebhookServer(self.app.bot, self._on_update,
                                          settings.webhook_listen, settings.webhook_port, path,
                                          settings.webhook_secret)
            await self._webhook.start()
            await self._set_webhook()
        else:
            await self.app.bot.delete_webhook()
            self._poller = Poller(self.app.bot, self._on_update, settings.poll_timeout,
                                  ALLOWED_UPDATES, catch_up, self.platform)
            self._poller.start()
        self.connected = True
        log.info("telegram: connected as @%s", self.username)

    async def _set_webhook(self, attempts: int = 5) -> None:
        """Telegram takes a new webhook at most about once a second per bot (several workers
        starting together each set it): a flood answer is waited out, a few times."""
        settings = self.settings
        for attempt in range(attempts):
            try:
                await self.app.bot.set_webhook(str(settings.webhook_url),
                                               secret_token=settings.webhook_secret,
                                               allowed_updates=ALLOWED_UPDATES)
                return
            except RetryAfter as err:
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(retry_seconds(err))

    async def stop(self) -> None:
        """Stop receiving; the batch being handled is finished and confirmed first."""
        self.connected = False
        if self._poller is not None:
            await self._poller.stop()
        if self._webhook is not None:
            await self._webhook.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()

    @property
    def username(self) -> str:
        return str(self.app.bot.username)

    async def set_menus(self) -> None:
        """The command menus; Telegram refusing them costs the menus, not the start."""
        for scope, language, commands in menus.menus():
            try:
                await self.app.bot.set_my_commands(commands, scope=scope,
                                                   language_code=language)
            except TelegramError as err:
                log.warning("telegram: could not set the command menu (%s, %s): %s",
                            language or "default", type(scope).__name__, err)

    # ------------------------------------------------------------------ receiving
    @property
    def idle(self) -> bool:
        """No fetched update is being handled (for a graceful stop, and tests)."""
        return self._in_flight == 0

    async def _on_update(self, update: Update) -> None:
        self._in_flight += 1
        try:
            await self._dispatch(update)
        finally:
            self._in_flight -= 1

    async def _dispatch(self, update: Update) -> None:
        """Every kind of update is handled here or ignored."""
        assert self._handle is not None
        if update.callback_query is not None:
            await self._pressed(update)
            return
        if update.my_chat_member is not None:
            self._admins.clear()  # rights changed: ask again
            reads_all = bool(self.app.bot.can_read_all_group_messages)
            for change in member_events(update.my_chat_member, reads_all):
                await self._handle(change)
            return
        if update.chat_member is not None:  # a person left the group or came back
            self._admins.clear()
            news = member_news(update.chat_member, update.update_id)
            if news is not None:
                await self._handle(news)
            return
        if update.edited_message is not None:  # never counts; the service tells why
            edit = from_message(update, update.edited_message, self.username, False)
            if edit is not None:
                await self._handle(edit)
            return
        message = update.message
        if message is None:
            return
        for news in left_or_back(message):  # the same news once more: applied once
            await self._handle(news)
        event = service_event(message)
        if event is not None:
            if event.kind == ChatChange.MOVED:  # the old chat's message ids mean nothing in the new
                assert self.store is not None
                await self.store.drop_messages(str(event.chat))
            await self._handle(event)
            return
        if not message.text:
            return
        admin = False
        if message.chat.type != "private" and message.text.startswith("/"):
            admin = anonymous_admin(message) or await self._is_admin(message)
        incoming = from_message(update, message, self.username, admin)
        if incoming is None:
            return
        if incoming.user.anonymous and incoming.chat is not None:
            self._anonymous_threads[incoming.user.id] = incoming.chat
        await self._handle(incoming)

    async def _pressed(self, update: Update) -> None:
        assert self._handle is not None and update.callback_query is not None
        incoming = from_callback(update)
        if incoming is None:
            return
        notice = await self._handle(incoming)
        try:
            await update.callback_query.answer(notice.text[:NOTICE_LIMIT] if notice else "")
        except BadRequest as err:  # answered too late: the button still did its work
            log.info("telegram: callback answer failed: %s", err)

    async def _is_admin(self, message: Message) -> bool:
        """Whether the sender administers the group (cached: commands come often)."""
        chat_id = message.chat.id
        user = message.from_user
        if user is None:
            return False
        key = (chat_id, user.id)
        cached = self._admins.get(key)
        now = time.monotonic()
        if cached is not None and now - cached[0] < ADMIN_CACHE_SECONDS:
            return cached[1]
        try:
            member = await self.app.bot.get_chat_member(chat_id, user.id)
            admin = member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
        except TelegramError as err:
            log.info("telegram: admin check failed: %s", err)
            return False
        self._admins[key] = (now, admin)
        return admin

    # ------------------------------------------------------------------ sending
    async def send_post(self, post: Post) -> None:
        await self._send(post, None)

    async def send_ballot(self, ballot: Ballot) -> None:
        """A ballot is an inline keyboard under the question (its last version drops it)."""
        await self._send(ballot, keyboard(ballot.options, self.username))

    async def send_picture(self, picture: Picture) -> None:
        """A picture is a photo (`sendPhoto`, the file uploaded) with its caption."""
        to = picture.to
        assert self.sender is not None, "telegram: sending before start"
        await self.sender.send_photo(picture, self._chat_of(to),
                                     isinstance(to, Reader) and not to.user.anonymous)

    async def send_keyboard(self, board: Keyboard) -> None:
        await self._send(board, keyboard(board.buttons, self.username))

    async def _send(self, message: Outgoing, markup: InlineKeyboardMarkup | None) -> None:
        to = message.to
        private = isinstance(to, Reader) and not to.user.anonymous
        assert self.sender is not None, "telegram: sending before start"
        await self.sender.send(message, self._chat_of(to), markup, private)

    def _chat_of(self, to: ChatRef | Reader) -> ChatRef:
        """Where a message is posted: the group (topic), or the reader's private chat, which
        for an anonymous admin is the group (topic) where they last posted."""
        if isinstance(to, ChatRef):
            return to
        if not to.user.anonymous:
            return ChatRef(to.user.id)
        group = anonymous_chat(to.user.id)
        if group is None:
            raise PermanentError(f"telegram: no group for {to.user.id}")
        return self._anonymous_threads.get(to.user.id, ChatRef(str(group)))

    def cost(self, message: Outgoing) -> int:
        return cost(message)

    async def can_resend(self, chat_ref: str, replace: str | None) -> bool:
        """Only an edit of a message whose id we know: sending it twice changes nothing that
        anybody sees. A new message sent twice would be announced twice."""
        assert self.store is not None
        return replace is not None and await self.store.message(chat_ref, replace) is not None

    async def team(self, order: TeamRoom) -> None:
        """A Telegram bot cannot create groups: team chats stay relays through the players'
        private chats with the bot."""

    async def silence(self, order: Silence) -> None:
        """Mute a removed player in the group, or let him speak again with exactly the
        group's own permissions. Missing rights raise `NotAllowed`: the order waits for them
        and the host is told."""
        chat_id, _ = chat_ids(order.chat)
        if order.user.anonymous:
            return  # an admin posting as the group is nobody to mute
        try:
            if order.muted:
                permissions = MUTED
            else:
                chat = await self.app.bot.get_chat(chat_id)
                permissions = chat.permissions or ChatPermissions.all_permissions()
            await self.app.bot.restrict_chat_member(chat_id, user_id(order.user), permissions,
                                                    use_independent_chat_permissions=True)
        except TelegramError as err:
            raise translate_restrict_error(err) from err

