"""The Telegram adapter: receives updates through python-telegram-bot (long polling or a
webhook) and hands them to the runtime; sends, edits and mutes for the outbox.

The PTB `Application` is initialised, started and stopped by our runtime (never by
`run_polling`), so Telegram, Matrix and the scheduler share one event loop. Pacing is the
outbox's job (PTB's rate limiter is not used): Telegram's limits are declared in `LIMITS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass

from telegram import ChatPermissions, Update
from telegram.constants import ChatMemberStatus, MessageLimit
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application, ApplicationBuilder, ContextTypes, TypeHandler

from core.redaction import hide
from core.service.ports import (
    Outgoing,
    PermanentError,
    RateLimits,
    Silence,
    TeamRoom,
    TransientError,
)
from core.service.ports import Unreachable as UnreachableError
from core.service.runtime import Handler
from core.storage.models import KeyValue

from . import menus
from .incoming import PLATFORM, anonymous_admin, from_callback, from_message
from .keyboards import keyboard

log = logging.getLogger(__name__)

# Telegram's published flood limits: about one message a second in a chat, twenty a minute in
# a group, thirty a second in all. Edits spend the same budget.
LIMITS = RateLimits(per_chat=1.0, overall=30.0, per_group_minute=20)
ADMIN_CACHE_SECONDS = 300.0
NOTICE_LIMIT = 200  # answerCallbackQuery text
ALLOWED_UPDATES = ["message", "callback_query"]  # edited messages never count (the rules)
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
    limits: RateLimits = LIMITS


def quiet_http_logs() -> None:
    """httpx logs every request URL at INFO (Bot API URLs contain the token; they are masked
    anyway, but one line per request is noise)."""
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)


class TelegramAdapter:
    platform = PLATFORM

    def __init__(self, settings: TelegramSettings) -> None:
        hide(settings.token)  # before PTB logs its API URL, which contains it
        quiet_http_logs()
        self.settings = settings
        self.limits = settings.limits
        builder: ApplicationBuilder = ApplicationBuilder().token(settings.token)  # type: ignore[type-arg]
        if settings.base_url:
            builder = builder.base_url(settings.base_url)
        self.app: Application = builder.build()  # type: ignore[type-arg]
        self.app.add_handler(TypeHandler(Update, self._on_update))
        self.app.add_error_handler(self._on_error)
        self._handle: Handler | None = None
        self._admins: dict[tuple[int, int], tuple[float, bool]] = {}
        self._in_flight = 0
        self._poller: asyncio.Task[None] | None = None
        self._stopping = False
        self._busy = False
        self.connected = False

    # ------------------------------------------------------------------ lifecycle
    async def start(self, handle: Handler) -> None:
        self._handle = handle
        await self.app.initialize()
        await self.set_menus()
        await self.app.start()
        if self.settings.webhook_url:
            updater = self.app.updater
            assert updater is not None
            await updater.start_webhook(
                listen=self.settings.webhook_listen, port=self.settings.webhook_port,
                url_path="telegram", webhook_url=self.settings.webhook_url,
                secret_token=self.settings.webhook_secret, allowed_updates=ALLOWED_UPDATES)
        else:
            await self.app.bot.delete_webhook()
            self._poller = asyncio.create_task(self._poll(), name="telegram-poll")
        self.connected = True
        log.info("telegram: connected as @%s", self.username)

    async def _poll(self) -> None:
        """Long polling that confirms an update to Telegram only after it was handled (the
        next getUpdates carries the offset past it). PTB's own poller confirms a batch as soon
        as it is fetched, so a crash would lose what was fetched but not yet applied; here it
        is fetched again after a restart, and the service applies it once."""
        offset: int | None = None
        backoff = 1.0
        while not self._stopping:
            try:
                updates = await self.app.bot.get_updates(
                    offset=offset, timeout=self.settings.poll_timeout,
                    allowed_updates=ALLOWED_UPDATES)
                self._busy = True
                for update in updates:
                    await self._on_update(update, None)
                    offset = update.update_id + 1
            except TelegramError as err:
                log.warning("telegram: polling failed (%s), retrying in %.0f s", err, backoff)
                await asyncio.sleep(backoff)
                backoff = min(60.0, backoff * 2)
                continue
            except Exception:  # the service could not apply it: fetch it again, later
                log.exception("telegram: an update failed; it will be fetched again")
                await asyncio.sleep(backoff)
                backoff = min(60.0, backoff * 2)
                continue
            finally:
                self._busy = False
            backoff = 1.0
        if offset is not None:  # confirm the last batch before leaving
            with contextlib.suppress(TelegramError):
                await self.app.bot.get_updates(offset=offset, timeout=0)

    async def stop(self) -> None:
        """Stop fetching; the batch being handled is finished and confirmed first (a waiting
        long poll is simply cancelled: what it would have brought is fetched next time)."""
        self.connected = False
        self._stopping = True
        if self._poller is not None:
            if not self._busy:
                self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        updater = self.app.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()

    @property
    def username(self) -> str:
        return self.app.bot.username

    async def set_menus(self) -> None:
        for scope, language, commands in menus.menus():
            await self.app.bot.set_my_commands(commands, scope=scope,  # type: ignore[arg-type]
                                               language_code=language)

    # ------------------------------------------------------------------ receiving
    @property
    def idle(self) -> bool:
        """No fetched update waits or is being handled (for a graceful stop, and tests)."""
        return self._in_flight == 0 and self.app.update_queue.empty()

    async def _on_update(self, update: Update, context: ContextTypes.DEFAULT_TYPE | None) -> None:
        self._in_flight += 1
        try:
            await self._dispatch(update)
        finally:
            self._in_flight -= 1

    async def _dispatch(self, update: Update) -> None:
        assert self._handle is not None
        if update.callback_query is not None:
            incoming = from_callback(update)
            if incoming is None:
                return
            notice = await self._handle(incoming)
            try:
                await update.callback_query.answer(notice.text[:NOTICE_LIMIT] if notice else "")
            except BadRequest as err:  # answered too late: the button still did its work
                log.info("telegram: callback answer failed: %s", err)
            return
        message = update.message  # edited messages never count, as the rules say
        if message is None or not message.text:
            return
        admin = False
        if message.chat.type != "private" and message.text.startswith("/"):
            admin = anonymous_admin(message) or await self._is_admin(message)
        incoming = from_message(update, message, self.username, admin)
        if incoming is not None:
            await self._handle(incoming)

    async def _is_admin(self, message: object) -> bool:
        """Whether the sender administers the group (cached: commands come often)."""
        chat_id = message.chat.id  # type: ignore[attr-defined]
        user = message.from_user  # type: ignore[attr-defined]
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

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("telegram: update %s failed", getattr(update, "update_id", "?"),
                  exc_info=context.error)

    # ------------------------------------------------------------------ sending
    async def send(self, message: Outgoing) -> None:
        chat_id = int(message.chat_ref)
        markup = keyboard(message.buttons, self.username)
        chunks = split_text(message.text)
        try:
            if message.replace is not None:
                await self._send_or_edit(chat_id, message.replace, chunks[-1][-4096:], markup)
                return
            for chunk in chunks[:-1]:
                await self.app.bot.send_message(chat_id, chunk)
            await self.app.bot.send_message(chat_id, chunks[-1], reply_markup=markup)
        except TelegramError as err:
            raise translate_error(err, message.private) from err

    async def can_resend(self, chat_ref: str, replace: str | None) -> bool:
        """Only an edit of a message whose id we know: sending it twice changes nothing that
        anybody sees. A new message sent twice would be announced twice."""
        return replace is not None and await KeyValue.exists(key=_message_key(chat_ref, replace))

    async def _send_or_edit(self, chat_id: int, replace: str, text: str, markup: object) -> None:
        """The first version of a message is sent, later versions edit it in place."""
        key = _message_key(str(chat_id), replace)
        known = await KeyValue.get_or_none(key=key)
        if known is not None:
            try:
                await self.app.bot.edit_message_text(text, chat_id=chat_id,
                                                     message_id=int(known.value),
                                                     reply_markup=markup)  # type: ignore[arg-type]
                return
            except BadRequest as err:
                if "not modified" in str(err).lower():
                    return
                if "not found" not in str(err).lower():
                    raise
        sent = await self.app.bot.send_message(chat_id, text,
                                               reply_markup=markup)  # type: ignore[arg-type]
        await KeyValue.update_or_create(key=key, defaults={"value": sent.message_id})

    async def team(self, order: TeamRoom) -> None:
        """A Telegram bot cannot create groups: team chats stay relays through the players'
        private chats with the bot."""

    async def silence(self, order: Silence) -> None:
        """Mute a removed player in a supergroup where the bot may restrict members; unmute
        restores the group's own default permissions. Without the rights, nothing happens."""
        chat_id = int(order.chat_ref)
        if not order.user_ref.isdigit():
            return  # an anonymous admin or a seat given to someone not on Telegram
        try:
            if order.muted:
                permissions = MUTED
            else:
                chat = await self.app.bot.get_chat(chat_id)
                permissions = chat.permissions or ChatPermissions.all_permissions()
            await self.app.bot.restrict_chat_member(chat_id, int(order.user_ref), permissions)
        except (BadRequest, Forbidden) as err:
            log.info("telegram: cannot %s %s in %s: %s",
                     "mute" if order.muted else "unmute", order.user_ref, chat_id, err)
        except TelegramError as err:
            raise translate_error(err, private=False) from err


def _message_key(chat_ref: str, replace: str) -> str:
    return f"tg:{chat_ref}:{replace}"[:64]


def split_text(text: str, limit: int = MessageLimit.MAX_TEXT_LENGTH) -> list[str]:
    """Telegram takes at most 4096 characters: long texts go in several messages, split at
    paragraph or line ends where possible."""
    chunks: list[str] = []
    rest = text.strip() or "…"
    while len(rest) > limit:
        cut = max(rest.rfind("\n\n", 0, limit), rest.rfind("\n", 0, limit))
        cut = cut if cut > limit // 2 else limit
        chunks.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    chunks.append(rest)
    return chunks


def translate_error(err: TelegramError, private: bool) -> Exception:
    """Telegram's errors as the outbox understands them."""
    if isinstance(err, RetryAfter):
        retry = err.retry_after
        seconds = retry.total_seconds() if hasattr(retry, "total_seconds") else float(retry)
        return TransientError(str(err), retry_after=max(1.0, seconds))
    if isinstance(err, Forbidden) or (isinstance(err, BadRequest) and private
                                      and "chat not found" in str(err).lower()):
        return UnreachableError(str(err)) if private else PermanentError(str(err))
    if isinstance(err, BadRequest):
        return PermanentError(str(err))
    if isinstance(err, NetworkError):
        return TransientError(str(err))
    return PermanentError(str(err))
