"""Posting and editing messages on Telegram, where one of our messages may be several of
Telegram's.

Telegram takes at most 4096 characters a message, so a long text goes in parts, and the
parts are one unit: each part that has arrived is remembered at once (a retry after a failure
on the third part sends the third part, not the first again), an edit edits every part (and
posts or deletes parts when the new version is longer or shorter), and the rate limits count
parts. A message Telegram no longer lets us edit is posted anew, once, and the old one
retired. A post that got no answer in time may have arrived: it is never posted again —
except a message edited in place (a sign-up, a ballot, a prompt), whose post is tried again:
its id unknown, it could never be edited, and its buttons are what keeps the game going (the
"Never twice" of docs/telegram.md states the exception; the orphan copy's buttons still answer).

The ids of an edited-in-place message's parts are kept as the store's platform message (the
chat and the message's key); the parts of a new message that have arrived, until all have,
under its outbox id (namespace "parts").
"""

from __future__ import annotations

import contextlib
import logging

from telegram import Bot, InlineKeyboardMarkup, InputFile
from telegram.constants import MessageLimit
from telegram.error import TelegramError, TimedOut

from core.service import AdapterStore, ChatRef, Outgoing, Picture, TransientError, UnknownOutcome

from .errors import never_sent, not_editable, not_modified, translate_error
from .refs import chat_ids

log = logging.getLogger(__name__)

CAPTION_MAX = MessageLimit.CAPTION_LENGTH  # 1,024
UNKNOWN_PART = 0  # a part whose post got no answer: it may be there, its id is unknown


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


PARTS = "parts"  # the store's namespace of new messages' parts, by outbox id


class Sender:
    """Sends one outbox message into one Telegram chat (a topic of it, if any)."""

    def __init__(self, bot: Bot, store: AdapterStore) -> None:
        self.bot = bot
        self.store = store

    async def send(self, message: Outgoing, chat: ChatRef, markup: InlineKeyboardMarkup | None,
                   private: bool) -> None:
        """`chat` is the chat to post in (a private chat's id is its reader's; an anonymous
        admin's private message goes to their group); raises the outbox's errors."""
        chunks = split_text(message.text)
        chat_ids(chat)  # a ref that is no Telegram chat fails for good, here
        try:
            if message.replace is not None:
                await self._version(chat, message.replace, chunks, markup)
            else:
                await self._post_all(chat, str(message.outbox_id), chunks, markup)
        except TelegramError as err:
            raise translate_error(err, private) from err

    async def send_photo(self, picture: Picture, chat: ChatRef, private: bool) -> None:
        """The picture as a photo; its caption cut at Telegram's 1,024 characters. A photo
        whose upload timed out may have arrived: it is not sent again."""
        chat_id, thread = chat_ids(chat)
        caption = picture.text if len(picture.text) <= CAPTION_MAX \
            else picture.text[:CAPTION_MAX - 1] + "…"
        try:
            await self.bot.send_photo(chat_id, InputFile(picture.image, picture.name),
                                      caption=caption or None, message_thread_id=thread)
        except TelegramError as err:
            raise translate_error(err, private, posting=True) from err

    async def _post(self, chat: ChatRef, text: str, markup: InlineKeyboardMarkup | None) -> int:
        chat_id, thread = chat_ids(chat)
        try:
            sent = await self.bot.send_message(chat_id, text, reply_markup=markup,
                                               message_thread_id=thread)
        except TimedOut as err:
            if never_sent(err):  # nothing left: not a part of unknown fate
                raise TransientError(str(err)) from err
            raise
        return int(sent.message_id)

    async def _post_all(self, chat: ChatRef, key: str, chunks: list[str],
                        markup: InlineKeyboardMarkup | None) -> None:
        """A new message: the parts not yet posted, each remembered as soon as it is."""
        done = [int(part) for part in await self.store.get(PARTS, key) or []]
        for index in range(len(done), len(chunks)):
            last = index == len(chunks) - 1
            try:
                done.append(await self._post(chat, chunks[index], markup if last else None))
            except TimedOut as err:  # it may be there: never post this part again
                done.append(UNKNOWN_PART)
                await self.store.put(PARTS, key, done)
                if last:
                    raise UnknownOutcome(str(err)) from err
                raise TransientError(str(err)) from err
            await self.store.put(PARTS, key, done)
        await self.store.delete(PARTS, key)

    async def _version(self, chat: ChatRef, key: str, chunks: list[str],
                       markup: InlineKeyboardMarkup | None) -> None:
        """A new version of a message edited in place: every part edited, parts added or
        removed as the text grew or shrank; a message Telegram refuses to edit is posted
        anew and the old parts deleted."""
        kept = await self.store.message(str(chat), key)
        parts = [int(part) for part in kept.ids] if kept is not None else []
        chat_id, _ = chat_ids(chat)
        if UNKNOWN_PART in parts:  # a part went astray: this version starts afresh
            await self._retire(chat_id, parts)
            parts = []
        for index, text in enumerate(chunks):
            reply_markup = markup if index == len(chunks) - 1 else None
            if index < len(parts):
                try:
                    await self.bot.edit_message_text(text, chat_id=chat_id,
                                                     message_id=parts[index],
                                                     reply_markup=reply_markup)
                except TelegramError as err:
                    if not_modified(err):
                        continue
                    if not not_editable(err):
                        raise
                    log.info("telegram: message %s in %s cannot be edited (%s); posting it "
                             "anew", parts[index], chat, err)
                    await self._retire(chat_id, parts)
                    await self.store.keep_message(str(chat), key, [])
                    await self._version(chat, key, chunks, markup)
                    return
                continue
            try:
                parts.append(await self._post(chat, text, reply_markup))
            except TimedOut as err:
                parts.append(UNKNOWN_PART)
                await self.store.keep_message(str(chat), key, parts)
                raise TransientError(str(err)) from err  # the next version starts afresh
            await self.store.keep_message(str(chat), key, parts)
        if len(parts) > len(chunks):  # the new version is shorter: the rest goes
            await self._retire(chat_id, parts[len(chunks):])
            await self.store.keep_message(str(chat), key, parts[:len(chunks)])

    async def _retire(self, chat_id: int, parts: list[int]) -> None:
        """Old parts are deleted where Telegram still allows it (else they simply stay)."""
        for message_id in parts:
            if message_id == UNKNOWN_PART:
                continue
            with contextlib.suppress(TelegramError):
                await self.bot.delete_message(chat_id, message_id)


def cost(message: Outgoing) -> int:
    """How many Telegram messages an outgoing message becomes."""
    return len(split_text(message.text))
