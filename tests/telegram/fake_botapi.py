"""A fake Telegram Bot API server for end-to-end tests of the Telegram adapter.

Why it exists: the adapter has to be tested through the real python-telegram-bot stack
(`Application`, `Updater` long polling, httpx, `ExtBot`, PTB's mapping of HTTP errors to
exceptions), but without Telegram. No ready-made emulator speaks enough of the Bot API for PTB 22
with group chats, so this module serves the part of the Bot API the game uses over HTTP on
127.0.0.1 (aiohttp, in the test's own event loop) and lets the test act as the human users:
send messages, press buttons, edit, block the bot.

It models what the game relies on and what Telegram enforces, with Telegram's own error texts:
per-chat message ids; private chats the bot may write to only after the user started it; groups
with member statuses and permissions; privacy mode; text, keyboard and callback-data limits;
"message is not modified"; one answer per callback query; optional flood control (429 with
`retry_after`). Payloads that have a PTB class behind them with many version-dependent fields
(chat members, full chat info, invite links) are built through PTB's own classes, so the shapes
follow the installed PTB.

Typical use::

    async with FakeBotAPI() as api:
        app = api.builder().build()        # token + base_url pointing at the fake
        app.add_handler(...)
        async with polling(app):
            alice = api.user("Alice")
            await alice.start()
            [hello] = await api.wait_for(lambda: api.sent_to(alice))
            query = await alice.press(hello, "join")
            await api.wait_for(lambda: api.answered(query))
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import itertools
import json
import logging
import math
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any, ClassVar

import telegram
from aiohttp import web

if TYPE_CHECKING:
    from telegram.ext import Application, ApplicationBuilder

log = logging.getLogger(__name__)

DEFAULT_TOKEN = "123456:TEST-token"
DEFAULT_BOT_USERNAME = "nightfall_test_bot"
#: The user Telegram puts in `from` of a message an anonymous group admin sends.
GROUP_ANONYMOUS_BOT_ID = 1087968824

MAX_TEXT_LENGTH = 4096
MAX_CALLBACK_DATA_BYTES = 64
MAX_BUTTONS_PER_ROW = 8
MAX_BUTTONS_TOTAL = 100
MAX_ANSWER_TEXT_LENGTH = 200
MAX_COMMANDS = 100

#: Update types a bot gets when it never asked for a specific list (Bot API: all but these three).
DEFAULT_ALLOWED_UPDATES = frozenset(
    {
        "message", "edited_message", "channel_post", "edited_channel_post",
        "business_connection", "business_message", "edited_business_message",
        "deleted_business_messages", "inline_query", "chosen_inline_result",
        "callback_query", "shipping_query", "pre_checkout_query", "purchased_paid_media",
        "poll", "poll_answer", "my_chat_member", "chat_join_request", "chat_boost",
        "removed_chat_boost",
    }
)

#: Parameters whose value PTB sends raw in a form body; everything else is `json.dumps`-ed.
#: Decoding these with json.loads would turn text "123" into an int.
STRING_PARAMS = frozenset(
    {
        "text", "caption", "callback_query_id", "data", "parse_mode", "url", "description",
        "short_description", "language_code", "name", "title", "action", "inline_message_id",
        "business_connection_id", "message_effect_id", "custom_title", "emoji", "question",
        "explanation", "query", "secret_token", "ip_address", "invite_link", "file_id",
        "sticker", "photo", "document", "video", "audio", "voice", "animation", "video_note",
        "thumbnail", "tag",
    }
)

#: Actions `sendChatAction` accepts.
CHAT_ACTIONS = frozenset(
    {
        "typing", "upload_photo", "record_video", "upload_video", "record_voice",
        "upload_voice", "upload_document", "choose_sticker", "find_location",
        "record_video_note", "upload_video_note",
    }
)

_BUTTON_ACTIONS = (
    "url", "callback_data", "web_app", "login_url", "switch_inline_query",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text",
    "callback_game", "pay",
)

_COMMAND_RE = re.compile(r"(?<!\S)/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,32}))?(?![A-Za-z0-9_@])")
_MENTION_RE = re.compile(r"(?<![\w@/])@([A-Za-z0-9_]{4,32})")
_DEEP_LINK_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_BOT_COMMAND_RE = re.compile(r"[a-z0-9_]{1,32}")


def _can_fields(cls: type) -> tuple[str, ...]:
    """The `can_*` flags of a PTB class. Read from PTB so that new Bot API flags (PTB adds some
    in most releases) are filled in without editing this file."""
    return tuple(n for n in inspect.signature(cls.__init__).parameters if n.startswith("can_"))


#: Every flag of ChatPermissions in the installed PTB.
PERMISSION_FIELDS = _can_fields(telegram.ChatPermissions)
#: Every right of ChatMemberAdministrator in the installed PTB.
ADMIN_RIGHT_FIELDS = tuple(
    n for n in _can_fields(telegram.ChatMemberAdministrator) if n != "can_be_edited"
)

#: What an administrator added without explicit rights may do (the usual Telegram defaults).
DEFAULT_ADMIN_RIGHTS: dict[str, bool] = {
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_pin_messages": True,
}


def _now() -> int:
    """Bot API dates are Unix seconds."""
    return int(time.time())


def _u16len(text: str) -> int:
    """Entity offsets and lengths are counted in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def _ptb_dict(cls: type[telegram.TelegramObject], **kwargs: Any) -> dict[str, Any]:
    """Serialize through PTB's own class so the payload has exactly the fields this PTB version
    requires. Required fields the fake does not model (flags added by newer Bot API versions)
    default to False."""
    for name, param in inspect.signature(cls.__init__).parameters.items():
        if name in ("self", "api_kwargs") or name in kwargs:
            continue
        if param.default is inspect.Parameter.empty and param.kind in (
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            inspect.Parameter.KEYWORD_ONLY,
        ):
            kwargs[name] = False
    return cls(**kwargs).to_dict()


def _epoch(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


# --------------------------------------------------------------------------------------------
# Errors


class BotAPIError(Exception):
    """A Bot API error reply: HTTP status `error_code` with Telegram's error body. PTB turns 400
    into BadRequest, 403 into Forbidden, 429 into RetryAfter, 5xx into NetworkError."""

    def __init__(self, error_code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def _bad(description: str) -> BotAPIError:
    return BotAPIError(400, f"Bad Request: {description}")


@dataclass(frozen=True)
class ApiError:
    """One rejected call, kept so tests can assert what the bot ran into."""

    method: str
    params: dict[str, Any]
    error_code: int
    description: str
    retry_after: int | None = None


# --------------------------------------------------------------------------------------------
# Formatting: parse_mode -> plain text + entities, with Telegram's parse errors.


class _EntityParseError(Exception):
    """Becomes "Bad Request: can't parse entities: <message>"."""


class _Out:
    """Accumulates visible text and the entities over it (offsets in UTF-16 units)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.u16 = 0
        self.entities: list[dict[str, Any]] = []

    def emit(self, text: str) -> None:
        self.parts.append(text)
        self.u16 += _u16len(text)

    def add(self, kind: str, start: int, **extra: Any) -> None:
        if self.u16 > start:
            length = self.u16 - start
            self.entities.append({"type": kind, "offset": start, "length": length, **extra})

    def result(self) -> tuple[str, list[dict[str, Any]]]:
        entities = sorted(self.entities, key=lambda e: (e["offset"], -e["length"]))
        return "".join(self.parts), entities


class _HTMLEntities(HTMLParser):
    """Telegram's HTML style: a small fixed tag set; anything else is an error. This catches the
    classic bug of putting a player's name containing "<" into HTML text unescaped."""

    TAGS: ClassVar[dict[str, str]] = {
        "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
        "ins": "underline", "s": "strikethrough", "strike": "strikethrough",
        "del": "strikethrough", "tg-spoiler": "spoiler", "span": "spoiler", "a": "text_link",
        "code": "code", "pre": "pre", "blockquote": "blockquote", "tg-emoji": "custom_emoji",
    }

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self._source = source
        self._line_starts = [0] + [i + 1 for i, ch in enumerate(source) if ch == "\n"]
        self._stack: list[tuple[str, str, int, dict[str, str | None]]] = []
        self.out = _Out()

    def _offset(self) -> int:
        line, column = self.getpos()
        index = self._line_starts[line - 1] + column
        return len(self._source[:index].encode())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        kind = self.TAGS.get(tag)
        attributes = dict(attrs)
        if kind is None or (tag == "span" and attributes.get("class") != "tg-spoiler"):
            raise _EntityParseError(
                f'Unsupported start tag "{tag}" at byte offset {self._offset()}'
            )
        self._stack.append((tag, kind, self.out.u16, attributes))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self._stack:
            raise _EntityParseError(f"Unexpected end tag at byte offset {self._offset()}")
        open_tag, kind, start, attributes = self._stack[-1]
        if open_tag != tag:
            raise _EntityParseError(
                f'Unmatched end tag at byte offset {self._offset()}, expected "</{open_tag}>", '
                f'found "</{tag}>"'
            )
        self._stack.pop()
        extra: dict[str, Any] = {}
        if kind == "text_link":
            href = attributes.get("href")
            if not href:
                return
            extra["url"] = href
        elif kind == "code" and self._stack and self._stack[-1][1] == "pre":
            language = (attributes.get("class") or "").removeprefix("language-")
            if language:
                self._stack[-1][3]["language"] = language
            return
        elif kind == "pre" and attributes.get("language"):
            extra["language"] = attributes["language"]
        elif kind == "custom_emoji":
            extra["custom_emoji_id"] = attributes.get("emoji-id") or ""
        elif kind == "blockquote" and "expandable" in attributes:
            kind = "expandable_blockquote"
        self.out.add(kind, start, **extra)

    def handle_data(self, data: str) -> None:
        self.out.emit(data)

    def parse(self) -> tuple[str, list[dict[str, Any]]]:
        self.feed(self._source)
        self.close()
        if self._stack:
            raise _EntityParseError(
                f'Can\'t find end tag corresponding to start tag "{self._stack[-1][0]}"'
            )
        return self.out.result()


_MDV2_RESERVED = frozenset("_*[]()~`>#+-=|{}.!")
_MDV2_NAMES = {
    "bold": "Bold", "italic": "Italic", "underline": "Underline",
    "strikethrough": "Strikethrough", "spoiler": "Spoiler", "text_link": "TextUrl",
}


def _find_unescaped(source: str, token: str, start: int) -> int:
    i = start
    while i < len(source):
        if source[i] == "\\":
            i += 2
            continue
        if source.startswith(token, i):
            return i
        i += 1
    return -1


def _unescape(text: str) -> str:
    return re.sub(r"\\([\x01-\x7e])", r"\1", text)


def _parse_markdown_v2(source: str) -> tuple[str, list[dict[str, Any]]]:
    """MarkdownV2 as documented: reserved characters outside entities must be escaped, entities
    must be closed. Catches unescaped "." or "-" in generated text, the most common bug."""
    out = _Out()
    stack: list[tuple[str, int, int]] = []

    def byte_at(i: int) -> int:
        return len(source[:i].encode())

    def toggle(kind: str, i: int) -> None:
        for k in range(len(stack) - 1, -1, -1):
            if stack[k][0] == kind:
                _, start, _ = stack.pop(k)
                out.add(kind, start)
                return
        stack.append((kind, out.u16, byte_at(i)))

    i, n = 0, len(source)
    while i < n:
        c = source[i]
        line_start = i == 0 or source[i - 1] == "\n"
        if c == "\\":
            if i + 1 < n and 0 < ord(source[i + 1]) <= 126:
                out.emit(source[i + 1])
                i += 2
            else:
                out.emit(c)
                i += 1
        elif c == "`":
            fence = "```" if source.startswith("```", i) else "`"
            end = _find_unescaped(source, fence, i + len(fence))
            if end < 0:
                name = "Pre" if fence == "```" else "Code"
                raise _EntityParseError(
                    f"Can't find end of {name} entity at byte offset {byte_at(i)}"
                )
            body = source[i + len(fence):end]
            extra: dict[str, Any] = {}
            if fence == "```" and "\n" in body:
                first, rest = body.split("\n", 1)
                if first and re.fullmatch(r"[\w+#.-]+", first):
                    extra["language"] = first
                body = rest if first == "" or extra else body
            start = out.u16
            out.emit(_unescape(body))
            out.add("pre" if fence == "```" else "code", start, **extra)
            i = end + len(fence)
        elif c == "*" and line_start and source.startswith("**>", i):
            i += 3
        elif c == "*":
            toggle("bold", i)
            i += 1
        elif c == "_":
            if source.startswith("__", i):
                toggle("underline", i)
                i += 2
            else:
                toggle("italic", i)
                i += 1
        elif c == "~":
            toggle("strikethrough", i)
            i += 1
        elif c == "|" and source.startswith("||", i):
            toggle("spoiler", i)
            i += 2
        elif c == ">" and line_start:
            i += 1
        elif c == "[" or (c == "!" and source.startswith("![", i)):
            stack.append(("text_link", out.u16, byte_at(i)))
            i += 2 if c == "!" else 1
        elif c == "]" and any(kind == "text_link" for kind, _, _ in stack):
            if not source.startswith("(", i + 1):
                raise _EntityParseError(
                    "Character ']' is reserved and must be escaped with the preceding '\\'"
                )
            end = _find_unescaped(source, ")", i + 2)
            if end < 0:
                raise _EntityParseError(
                    f"Can't find end of a URL at byte offset {byte_at(i + 2)}"
                )
            url = _unescape(source[i + 2:end])
            for k in range(len(stack) - 1, -1, -1):
                if stack[k][0] == "text_link":
                    _, start, _ = stack.pop(k)
                    if url.startswith("tg://emoji?id="):
                        out.add("custom_emoji", start, custom_emoji_id=url.split("=", 1)[1])
                    else:
                        out.add("text_link", start, url=url)
                    break
            i = end + 1
        elif c in _MDV2_RESERVED:
            raise _EntityParseError(
                f"Character '{c}' is reserved and must be escaped with the preceding '\\'"
            )
        else:
            out.emit(c)
            i += 1
    if stack:
        kind, _, offset = stack[-1]
        raise _EntityParseError(
            f"Can't find end of {_MDV2_NAMES[kind]} entity at byte offset {offset}"
        )
    return out.result()


def _parse_markdown_legacy(source: str) -> tuple[str, list[dict[str, Any]]]:
    """Legacy Markdown: *bold*, _italic_, `code`, ```pre```, [text](url); no nesting."""
    out = _Out()
    marks = {"*": "bold", "_": "italic"}

    def unclosed(i: int) -> _EntityParseError:
        offset = len(source[:i].encode())
        return _EntityParseError(f"Can't find end of the entity starting at byte offset {offset}")

    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == "\\" and i + 1 < n and source[i + 1] in "_*`[":
            out.emit(source[i + 1])
            i += 2
        elif c in marks:
            end = source.find(c, i + 1)
            if end < 0:
                raise unclosed(i)
            start = out.u16
            out.emit(source[i + 1:end])
            out.add(marks[c], start)
            i = end + 1
        elif c == "`":
            fence = "```" if source.startswith("```", i) else "`"
            end = source.find(fence, i + len(fence))
            if end < 0:
                raise unclosed(i)
            start = out.u16
            out.emit(source[i + len(fence):end])
            out.add("pre" if fence == "```" else "code", start)
            i = end + len(fence)
        elif c == "[":
            close = source.find("](", i + 1)
            end = source.find(")", close + 2) if close >= 0 else -1
            if end < 0:
                raise unclosed(i)
            start = out.u16
            out.emit(source[i + 1:close])
            out.add("text_link", start, url=source[close + 2:end])
            i = end + 1
        else:
            out.emit(c)
            i += 1
    return out.result()


def _parse_formatted(
    source: str, parse_mode: str | None, entities: list[dict[str, Any]] | None
) -> tuple[str, list[dict[str, Any]]]:
    mode = (parse_mode or "").lower()
    try:
        if not mode:
            return source, [dict(e) for e in entities or []]
        if mode == "html":
            return _HTMLEntities(source).parse()
        if mode == "markdownv2":
            return _parse_markdown_v2(source)
        if mode == "markdown":
            return _parse_markdown_legacy(source)
    except _EntityParseError as error:
        raise _bad(f"can't parse entities: {error}") from None
    raise _bad("unsupported parse_mode")


def _detect_entities(text: str) -> list[dict[str, Any]]:
    """What a Telegram client attaches to a typed message: bot_command and mention entities."""
    found: list[dict[str, Any]] = []
    for regex, kind in ((_COMMAND_RE, "bot_command"), (_MENTION_RE, "mention")):
        for match in regex.finditer(text):
            found.append(
                {
                    "type": kind,
                    "offset": _u16len(text[: match.start()]),
                    "length": _u16len(match.group(0)),
                }
            )
    return sorted(found, key=lambda e: e["offset"])


# --------------------------------------------------------------------------------------------
# Keyboards


def _check_reply_markup(markup: Any) -> dict[str, Any] | None:
    """Validate an inline keyboard the way Telegram does and normalise it for storage.

    Returns None for "no inline keyboard": no markup, an empty keyboard, or a reply keyboard /
    ForceReply / ReplyKeyboardRemove (Telegram accepts those but never returns them on the
    Message)."""
    if markup is None:
        return None
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            raise _bad("can't parse reply keyboard markup JSON object") from None
    if not isinstance(markup, dict):
        raise _bad("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        return None
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise _bad('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays')
    if sum(len(row) for row in rows) > MAX_BUTTONS_TOTAL or any(
        len(row) > MAX_BUTTONS_PER_ROW for row in rows
    ):
        raise _bad("reply markup is too long")
    normalised: list[list[dict[str, Any]]] = []
    for row in rows:
        buttons: list[dict[str, Any]] = []
        for button in row:
            if not isinstance(button, dict) or "text" not in button:
                raise _bad('can\'t parse inline keyboard button: Can\'t find field "text"')
            actions = [key for key in _BUTTON_ACTIONS if button.get(key) is not None]
            if not actions:
                raise _bad(
                    "can't parse inline keyboard button: "
                    "Text buttons are unallowed in the inline keyboard"
                )
            if len(actions) > 1:
                raise _bad(
                    "can't parse inline keyboard button: "
                    "exactly one of the optional fields must be used"
                )
            if "callback_data" in actions:
                data = button["callback_data"]
                if not isinstance(data, str) or not (
                    1 <= len(data.encode()) <= MAX_CALLBACK_DATA_BYTES
                ):
                    raise _bad("BUTTON_DATA_INVALID")
            if "url" in actions:
                url = button["url"]
                if not isinstance(url, str) or not url.strip() or re.search(r"\s", url):
                    raise _bad("BUTTON_URL_INVALID")
            buttons.append({k: v for k, v in button.items() if v is not None})
        if buttons:
            normalised.append(buttons)
    return {"inline_keyboard": normalised} if normalised else None


# --------------------------------------------------------------------------------------------
# Flood control


@dataclass(frozen=True)
class FloodRules:
    """Telegram's flood limits as budgets; None switches a limit off.

    Telegram does not publish its algorithm; this is the documented shape of it: about one
    message per second in one chat with short bursts tolerated (`burst` messages back to back),
    at most `per_group_per_minute` in one group per sliding minute, and about
    `overall_per_second` across all chats. Sends and edits both spend budget."""

    per_chat_per_second: float | None = 1.0
    per_group_per_minute: int | None = 20
    overall_per_second: float | None = 30.0
    burst: int = 3


class _Bucket:
    """A token bucket: `capacity` calls back to back, refilled at `rate` per second."""

    def __init__(self, rate: float, capacity: float, now: float) -> None:
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.stamp = now

    def wait(self, now: float) -> float:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self) -> None:
        self.tokens -= 1


class _FloodControl:
    def __init__(self, rules: FloodRules, clock: Callable[[], float]) -> None:
        self.rules = rules
        self.clock = clock
        self.chats: dict[int, _Bucket] = {}
        self.groups: dict[int, deque[float]] = {}
        self.overall: _Bucket | None = None

    def check(self, chat_id: int, is_group: bool) -> None:
        """Spend one unit of every budget that applies, or raise 429 without spending any."""
        rules, now = self.rules, self.clock()
        waits = [0.0]
        chat_bucket = group_window = None
        if rules.per_chat_per_second:
            chat_bucket = self.chats.get(chat_id)
            if chat_bucket is None:
                chat_bucket = _Bucket(rules.per_chat_per_second, max(1, rules.burst), now)
                self.chats[chat_id] = chat_bucket
            waits.append(chat_bucket.wait(now))
        if is_group and rules.per_group_per_minute:
            group_window = self.groups.setdefault(chat_id, deque())
            while group_window and group_window[0] <= now - 60:
                group_window.popleft()
            if len(group_window) >= rules.per_group_per_minute:
                waits.append(group_window[0] + 60 - now)
        if rules.overall_per_second:
            if self.overall is None:
                rate = rules.overall_per_second
                self.overall = _Bucket(rate, max(1.0, rate), now)
            waits.append(self.overall.wait(now))
        wait = max(waits)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise BotAPIError(429, f"Too Many Requests: retry after {seconds}", retry_after=seconds)
        if chat_bucket is not None:
            chat_bucket.take()
        if group_window is not None:
            group_window.append(now)
        if self.overall is not None:
            self.overall.take()


# --------------------------------------------------------------------------------------------
# State


@dataclass
class _Member:
    status: str  # creator | administrator | member | restricted | left | kicked
    rights: dict[str, bool] = field(default_factory=dict)
    permissions: dict[str, bool] | None = None
    is_member: bool = True
    until_date: int = 0


@dataclass
class _Message:
    chat_id: int
    message_id: int
    date: int
    sender_id: int
    text: str | None
    entities: list[dict[str, Any]]
    source_text: str | None = None
    parse_mode: str | None = None
    reply_markup: dict[str, Any] | None = None
    reply_to_message_id: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    sender_chat: bool = False
    real_sender_id: int | None = None
    service: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Chat:
    id: int
    type: str  # private | group | supergroup
    title: str | None = None
    username: str | None = None
    members: dict[int, _Member] = field(default_factory=dict)
    permissions: dict[str, bool] = field(default_factory=dict)
    messages: dict[int, _Message] = field(default_factory=dict)
    history: list[MessageView] = field(default_factory=list)
    next_message_id: int = 1
    pinned: list[int] = field(default_factory=list)
    invite_links: list[dict[str, Any]] = field(default_factory=list)
    primary_link: str | None = None


@dataclass
class _Query:
    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created: float
    answer: dict[str, Any] | None = None


class MessageView(dict[str, Any]):
    """A snapshot of one message as the tests see it.

    It is the Bot API Message dict (message_id, date, chat, from, text, entities, reply_markup,
    edit_date, reply_to_message, sender_chat...) plus conveniences: `chat_id`, `buttons` (rows of
    button dicts, [] without an inline keyboard), `edited`, `from_bot` (sent by *our* bot),
    `sender_id`, `deleted`, `parse_mode`, `source_text` (the text as the bot sent it, before
    markup parsing; `text` is what users see), `reply_to_message_id`; history entries also have
    `event` ("sent" or "edited"). Keys are readable as attributes too (`view.text`,
    `view.from_user` for "from"), so tests can use whichever style reads better."""

    def __getattr__(self, name: str) -> Any:
        key = "from" if name == "from_user" else name
        try:
            return self[key]
        except KeyError:
            raise AttributeError(name) from None

    def button(self, data: str | None = None, *, text: str | None = None) -> dict[str, Any] | None:
        """The first button with this callback_data (or this label), or None."""
        for row in self.get("buttons", []):
            for button in row:
                if (data is not None and button.get("callback_data") == data) or (
                    text is not None and button.get("text") == text
                ):
                    return button
        return None


# --------------------------------------------------------------------------------------------
# Test-side actors


class FakeUser:
    """A human Telegram user driven by the test. Its actions become updates for the bot."""

    def __init__(
        self,
        api: FakeBotAPI,
        user_id: int,
        first_name: str,
        username: str | None,
        language_code: str | None,
        last_name: str | None = None,
    ) -> None:
        self.api = api
        self.id = user_id
        self.first_name = first_name
        self.last_name = last_name
        self.username = username
        self.language_code = language_code
        #: The user has opened the private chat with the bot (so the bot may write to it).
        self.started = False
        self.blocked = False

    def __repr__(self) -> str:
        return f"FakeUser({self.first_name!r}, id={self.id})"

    @property
    def chat_id(self) -> int:
        """A private chat's id is the user's id."""
        return self.id

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data

    async def send(
        self,
        text: str,
        chat: FakeGroup | int | None = None,
        reply_to: Any = None,
        *,
        anonymous: bool = False,
    ) -> MessageView:
        """Type `text` into the private chat with the bot (chat=None) or into a group.

        Adds bot_command / mention entities like a client does. Sending in private marks the
        user as having started the bot. `anonymous=True` posts as an anonymous group admin
        (from = GroupAnonymousBot, sender_chat = the group). Raises AssertionError for what a
        real client cannot do: post in a group one is not in or is muted in, write to a bot one
        has blocked."""
        message = self.api._user_message(self, chat, text, reply_to, anonymous)
        await asyncio.sleep(0)
        return message

    async def reply(self, message: Any, text: str) -> MessageView:
        """Reply to `message` in its chat (a reply to the bot passes privacy mode)."""
        chat_id, _ = _locate(message)
        chat = None if chat_id == self.id else chat_id
        return await self.send(text, chat=chat, reply_to=message)

    async def start(self, payload: str | None = None) -> MessageView:
        """Press Start in the private chat, optionally through a t.me deep link:
        the bot receives "/start" or "/start <payload>". Unblocks the bot like "Restart" does."""
        if payload is not None:
            assert _DEEP_LINK_RE.fullmatch(payload), (
                f"deep-link payload {payload!r} is not 1-64 characters of A-Za-z0-9_- ;"
                " Telegram would not pass it to the bot"
            )
        if self.blocked:
            self.unblock()
        return await self.send("/start" if payload is None else f"/start {payload}")

    async def press(self, message: Any, data: str | None = None, *, text: str | None = None) -> str:
        """Press the inline button with callback_data `data` (or label `text`) under `message`.

        Asserts that a real client could: the message exists in the chat it claims, the user
        can see that chat, and the button is on the message's *current* keyboard. Returns the
        callback query id (see `FakeBotAPI.answer_for`)."""
        assert data is not None or text is not None, "press() needs data or text"
        query_id = self.api._press(self, message, data, text)
        await asyncio.sleep(0)
        return query_id

    async def press_forged(
        self, chat: FakeUser | FakeGroup | int, message_id: int, data: str
    ) -> str:
        """Send a callback query with arbitrary data, as a modified client can: no check that
        the button exists (or that the message does). Returns the query id."""
        query_id = self.api._forged_press(self, chat, message_id, data)
        await asyncio.sleep(0)
        return query_id

    async def edit(self, message: Any, new_text: str) -> MessageView:
        """Edit one of this user's own messages; the bot gets an `edited_message` update."""
        view = self.api._user_edit(self, message, new_text)
        await asyncio.sleep(0)
        return view

    def block(self) -> None:
        """Block the bot: its sends to this user now fail with 403; the bot gets my_chat_member."""
        if not self.blocked:
            self.blocked = True
            self.api._private_status_change(self, "member", "kicked")

    def unblock(self) -> None:
        if self.blocked:
            self.blocked = False
            self.api._private_status_change(self, "kicked", "member")


class FakeGroup:
    """A group or supergroup. Membership changes are made by the test (as Telegram users
    would) and, where Telegram notifies bots, announced as updates."""

    def __init__(self, api: FakeBotAPI, chat: _Chat) -> None:
        self.api = api
        self._chat = chat

    def __repr__(self) -> str:
        return f"FakeGroup({self.title!r}, id={self.id})"

    @property
    def id(self) -> int:
        return self._chat.id

    chat_id = id

    @property
    def title(self) -> str:
        return self._chat.title or ""

    @property
    def type(self) -> str:
        return self._chat.type

    def status(self, user: FakeUser | int) -> str:
        """creator, administrator, member, restricted, left or kicked."""
        member = self._chat.members.get(_user_id(user))
        return member.status if member else "left"

    def permissions(self, user: FakeUser | int) -> dict[str, bool] | None:
        """A restricted member's permissions; None for anyone not restricted."""
        member = self._chat.members.get(_user_id(user))
        return dict(member.permissions) if member and member.permissions is not None else None

    def can_send(self, user: FakeUser | int) -> bool:
        """Whether a real client would let this user post a text message here."""
        return self.api._can_post(self._chat, _user_id(user))

    def member(self, user: FakeUser | int) -> dict[str, Any]:
        """The ChatMember dict getChatMember would return."""
        return self.api._member_dict(self._chat, _user_id(user))

    def messages(self, *, include_users: bool = False) -> list[MessageView]:
        return self.api.messages(self, include_users=include_users)

    def add_member(self, user: FakeUser, *, announce: bool = True) -> None:
        """The user joins. With `announce`, a new_chat_members service message (delivered in
        privacy mode too) and a chat_member update are emitted."""
        old = self.status(user)
        self._chat.members[user.id] = _Member("member")
        if announce:
            self.api._service_message(self._chat, user.id, {"new_chat_members": [user.to_dict()]})
            self.api._chat_member_update(self._chat, user.id, user.id, old)

    def remove_member(self, user: FakeUser, *, announce: bool = True) -> None:
        """The user leaves the group."""
        old = self.status(user)
        self._chat.members[user.id] = _Member("left", is_member=False)
        if announce:
            self.api._service_message(self._chat, user.id, {"left_chat_member": user.to_dict()})
            self.api._chat_member_update(self._chat, user.id, user.id, old)

    def make_admin(self, user: FakeUser, **rights: bool) -> None:
        """Promote `user` to administrator (usual default rights, overridden by `rights`)."""
        old = self.status(user)
        rights = {**DEFAULT_ADMIN_RIGHTS, **rights}
        self._chat.members[user.id] = _Member("administrator", rights=rights)
        self.api._chat_member_update(self._chat, user.id, self.api._owner_of(self._chat), old)

    def set_bot_admin(self, admin: bool = True, **rights: bool) -> None:
        """Make the bot an administrator (with `rights` over the defaults) or a plain member."""
        old = self.status(self.api.bot_id)
        if admin:
            member = _Member("administrator", rights={**DEFAULT_ADMIN_RIGHTS, **rights})
        else:
            member = _Member("member")
        self._chat.members[self.api.bot_id] = member
        self.api._my_chat_member_update(self._chat, self.api._owner_of(self._chat), old)

    def remove_bot(self) -> None:
        """Someone removes the bot from the group: it gets my_chat_member and 403 afterwards."""
        old = self.status(self.api.bot_id)
        self._chat.members[self.api.bot_id] = _Member("left", is_member=False)
        self.api._my_chat_member_update(self._chat, self.api._owner_of(self._chat), old)


def _user_id(user: FakeUser | int) -> int:
    return user if isinstance(user, int) else user.id


def _locate(message: Any) -> tuple[int, int]:
    """(chat_id, message_id) of a MessageView, a Bot API message dict, or a PTB Message."""
    if isinstance(message, dict):
        chat_id = message.get("chat_id")
        if chat_id is None:
            chat_id = message["chat"]["id"]
        return int(chat_id), int(message["message_id"])
    return int(message.chat_id), int(message.message_id)


# --------------------------------------------------------------------------------------------
# The server


class FakeBotAPI:
    """The fake Bot API server plus the state of its small Telegram world.

    Bot side: `/bot<token>/<method>` over HTTP (GET or POST; form, JSON or multipart bodies).
    Test side: `user()`, `group()`, the FakeUser/FakeGroup actions, and readers (`messages`,
    `sent_to`, `history`, `answer_for`, `calls`, `errors`, `wait_for`, `settle`)."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = DEFAULT_BOT_USERNAME,
        bot_name: str = "Nightfall",
        privacy: bool = False,
        flood: FloodRules | None = None,
        clock: Callable[[], float] = time.monotonic,
        query_timeout: float | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        """`privacy`: Telegram's privacy mode (getMe.can_read_all_group_messages is its
        negation); changeable at runtime. `flood`: FloodRules, None = no flood control.
        `clock`: the clock flood control reads. `query_timeout`: seconds after which a callback
        query can no longer be answered (None = never expires)."""
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.privacy = privacy
        self.clock = clock
        self.query_timeout = query_timeout
        self.host = host
        self.port = port
        self._flood: _FloodControl | None = None
        self.flood = flood

        #: Every call the bot made, in order: (method name, decoded parameters).
        self.calls: list[tuple[str, dict[str, Any]]] = []
        #: Methods the bot called that this fake does not implement (tests assert it is empty).
        self.unknown_methods: list[str] = []
        #: Every call answered with an error (injected, validation, 403, 429...).
        self.errors: list[ApiError] = []
        #: Number of 429 replies.
        self.flood_hits = 0
        #: Unexpected exceptions inside the fake (bugs here, or parameters it could not read).
        self.internal_errors: list[str] = []
        #: sendChatAction calls: (chat_id, action).
        self.chat_actions: list[tuple[int, str]] = []
        self.webhook_url: str | None = None

        self._users: dict[int, FakeUser] = {}
        self._chats: dict[int, _Chat] = {}
        self._queries: dict[str, _Query] = {}
        self._commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self._bot_texts: dict[tuple[str, str], str] = {}
        self._injected: dict[str, deque[BotAPIError]] = {}
        self._user_ids = itertools.count(700_000_001)
        self._basic_group_ids = itertools.count(4_000_001)
        self._supergroup_ids = itertools.count(1_001)
        self._query_ids = itertools.count(5_000_000_001)
        self._link_ids = itertools.count(1)

        self._pending: list[dict[str, Any]] = []
        self._next_update_id = 0
        self._highest_fetched = 0
        self._allowed_updates: frozenset[str] = DEFAULT_ALLOWED_UPDATES
        self._poll_generation = 0
        self._parked_generation = -1
        self._update_event = asyncio.Event()
        self._closing = False
        self._inflight = 0
        self._last_activity = 0.0

        self._runner: web.AppRunner | None = None
        self._url: str | None = None
        self._methods: dict[str, tuple[str, Callable[[dict[str, Any]], Any]]] = {}
        for attr in dir(self):
            if attr.startswith("_m_"):
                name = attr[3:]
                self._methods[name.lower()] = (name, getattr(self, attr))

    # ---- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind host:port (port 0 = a free one) and serve."""
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        port = self._runner.addresses[0][1]
        self._url = f"http://{self.host}:{port}"
        _RUNNING[self._url] = self
        self._closing = False
        self._last_activity = asyncio.get_running_loop().time()

    async def stop(self) -> None:
        """Release pending long polls first, so that shutdown does not wait out their timeout."""
        self._closing = True
        self._wake()
        if self._url is not None:
            _RUNNING.pop(self._url, None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeBotAPI:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT"""
        if self._url is None:
            raise RuntimeError("FakeBotAPI is not started")
        return self._url

    @property
    def base_url(self) -> str:
        """What to give `ApplicationBuilder.base_url()`: PTB appends the token and method."""
        return f"{self.url}/bot"

    def builder(self) -> ApplicationBuilder:
        """An ApplicationBuilder with the token and base URLs of this fake already set."""
        from telegram.ext import ApplicationBuilder

        return (
            ApplicationBuilder()
            .token(self.token)
            .base_url(self.base_url)
            .base_file_url(f"{self.url}/file/bot")
        )

    @property
    def flood(self) -> FloodRules | None:
        return self._flood.rules if self._flood else None

    @flood.setter
    def flood(self, rules: FloodRules | None) -> None:
        """Setting the rules (or None) starts every budget afresh."""
        self._flood = _FloodControl(rules, self.clock) if rules else None

    # ---- HTTP --------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(BotAPIError(401, "Unauthorized").payload(), status=401)
        name = request.match_info["method"]
        try:
            params = await _read_params(request)
        except ValueError:
            return self._reply_error(name, {}, _bad("can't parse request body"))
        except ConnectionError:  # the client gave up mid-request (PTB stopping): nobody to answer
            return web.Response(status=499)
        entry = self._methods.get(name.lower())
        method = entry[0] if entry else name
        self.calls.append((method, params))
        if entry is None:
            self.unknown_methods.append(name)
            log.error("fake Bot API: unknown method %s called", name)
            return self._reply_error(name, params, BotAPIError(404, "Not Found: method not found"))
        polling = method == "getUpdates"
        loop = asyncio.get_running_loop()
        if not polling:
            self._inflight += 1
        try:
            injected = self._injected.get(method.lower())
            if injected:
                raise injected.popleft()
            result = entry[1](params)
            if inspect.isawaitable(result):
                result = await result
        except BotAPIError as error:
            return self._reply_error(method, params, error)
        except (KeyError, ValueError, TypeError) as error:
            self.internal_errors.append(f"{method}({params!r}): {error!r}")
            return self._reply_error(method, params, _bad(f"invalid parameters: {error!r}"))
        except Exception as error:
            self.internal_errors.append(f"{method}({params!r}): {error!r}")
            log.exception("fake Bot API: %s failed", method)
            return self._reply_error(method, params, BotAPIError(500, "Internal Server Error"))
        finally:
            if not polling:
                self._inflight -= 1
                self._last_activity = loop.time()
        return web.json_response({"ok": True, "result": result})

    def _reply_error(self, method: str, params: dict[str, Any], error: BotAPIError) -> web.Response:
        self.errors.append(
            ApiError(method, params, error.error_code, error.description, error.retry_after)
        )
        if error.error_code == 429:
            self.flood_hits += 1
        return web.json_response(error.payload(), status=error.error_code)

    def fail_next(
        self, method: str, error_code: int, description: str, retry_after: int | None = None
    ) -> None:
        """Make the next call of `method` fail with this error (queued: call again to fail
        several). E.g. fail_next("sendMessage", 429, "Too Many Requests: retry after 1", 1).
        `method` may be spelled sendMessage or send_message."""
        key = method.replace("_", "").lower()
        self._injected.setdefault(key, deque()).append(
            BotAPIError(error_code, description, retry_after)
        )

    # ---- updates -----------------------------------------------------------------------------

    def _wake(self) -> None:
        """Wake every long poll. An Event swapped per wake-up (not a Condition) so that
        synchronous test actions such as user.block() can wake the poller too."""
        event, self._update_event = self._update_event, asyncio.Event()
        event.set()

    def _emit(self, kind: str, payload: dict[str, Any]) -> int:
        self._next_update_id += 1
        self._pending.append({"update_id": self._next_update_id, kind: payload})
        with contextlib.suppress(RuntimeError):
            self._last_activity = asyncio.get_running_loop().time()
        self._wake()
        return self._next_update_id

    def _deliverable(self, limit: int) -> list[dict[str, Any]]:
        self._pending = [u for u in self._pending if _update_kind(u) in self._allowed_updates]
        batch = self._pending[:limit]
        if batch:
            self._highest_fetched = max(self._highest_fetched, batch[-1]["update_id"])
        return batch

    async def _m_getUpdates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        if self.webhook_url:
            raise BotAPIError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = int(p.get("offset") or 0)
        limit = min(100, max(1, int(p.get("limit") or 100)))
        timeout = max(0.0, float(p.get("timeout") or 0))
        allowed = p.get("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = frozenset(allowed) if allowed else DEFAULT_ALLOWED_UPDATES
        if offset > 0:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]
        elif offset < 0:
            self._pending = self._pending[offset:]
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake()  # an older poll still waiting is now superseded
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            batch = self._deliverable(limit)
            if batch or self._closing:
                if batch:
                    self._last_activity = loop.time()
                return batch
            if generation != self._poll_generation:
                raise BotAPIError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            self._parked_generation = generation
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._update_event.wait(), remaining)
            finally:
                if self._parked_generation == generation:
                    self._parked_generation = -1

    def _m_setWebhook(self, p: dict[str, Any]) -> bool:
        """Only recorded: this fake delivers updates through getUpdates."""
        self.webhook_url = str(p.get("url") or "") or None
        if p.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def _m_deleteWebhook(self, p: dict[str, Any]) -> bool:
        self.webhook_url = None
        if p.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def _m_getWebhookInfo(self, p: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": self.webhook_url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }

    # ---- payload builders --------------------------------------------------------------------

    def _bot_dict(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def _user_dict(self, user_id: int) -> dict[str, Any]:
        if user_id == self.bot_id:
            return self._bot_dict()
        if user_id == GROUP_ANONYMOUS_BOT_ID:
            return {
                "id": GROUP_ANONYMOUS_BOT_ID,
                "is_bot": True,
                "first_name": "Group",
                "username": "GroupAnonymousBot",
            }
        return self._users[user_id].to_dict()

    def _ptb_user(self, user_id: int) -> telegram.User:
        return telegram.User(**self._user_dict(user_id))

    def _chat_dict(self, chat: _Chat) -> dict[str, Any]:
        data: dict[str, Any] = {"id": chat.id, "type": chat.type}
        if chat.type == "private":
            user = self._users[chat.id]
            data["first_name"] = user.first_name
            if user.last_name:
                data["last_name"] = user.last_name
            if user.username:
                data["username"] = user.username
        else:
            data["title"] = chat.title
            if chat.username:
                data["username"] = chat.username
        return data

    def _message_dict(self, msg: _Message, *, nested: bool = False) -> dict[str, Any]:
        chat = self._chats[msg.chat_id]
        data: dict[str, Any] = {
            "message_id": msg.message_id,
            "date": msg.date,
            "chat": self._chat_dict(chat),
            "from": self._user_dict(msg.sender_id),
        }
        if msg.sender_chat:
            data["sender_chat"] = self._chat_dict(chat)
        if msg.text is not None:
            data["text"] = msg.text
        if msg.entities:
            data["entities"] = copy.deepcopy(msg.entities)
        if msg.edit_date is not None:
            data["edit_date"] = msg.edit_date
        if msg.reply_markup:
            data["reply_markup"] = copy.deepcopy(msg.reply_markup)
        if msg.reply_to_message_id is not None and not nested:
            replied = chat.messages.get(msg.reply_to_message_id)
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = self._message_dict(replied, nested=True)
        if msg.options.get("protect_content"):
            data["has_protected_content"] = True
        if msg.options.get("link_preview_options"):
            data["link_preview_options"] = copy.deepcopy(msg.options["link_preview_options"])
        data.update(copy.deepcopy(msg.service))
        return data

    def _view(self, msg: _Message, event: str | None = None) -> MessageView:
        data = self._message_dict(msg)
        data.setdefault("text", "")
        data.update(
            chat_id=msg.chat_id,
            buttons=copy.deepcopy((msg.reply_markup or {}).get("inline_keyboard", [])),
            edited=msg.edit_date is not None,
            from_bot=msg.sender_id == self.bot_id,
            sender_id=msg.sender_id,
            deleted=msg.deleted,
            parse_mode=msg.parse_mode,
            source_text=msg.source_text if msg.source_text is not None else msg.text,
            reply_to_message_id=msg.reply_to_message_id,
        )
        if event is not None:
            data["event"] = event
        return MessageView(data)

    def _member_dict(self, chat: _Chat, user_id: int) -> dict[str, Any]:
        member = chat.members.get(user_id) or _Member("left", is_member=False)
        user = self._ptb_user(user_id)
        if member.status == "creator":
            return _ptb_dict(telegram.ChatMemberOwner, user=user, is_anonymous=False)
        if member.status == "administrator":
            rights = {name: bool(member.rights.get(name, False)) for name in ADMIN_RIGHT_FIELDS}
            return _ptb_dict(
                telegram.ChatMemberAdministrator,
                user=user,
                can_be_edited=user_id == self.bot_id,
                is_anonymous=False,
                **rights,
            )
        if member.status == "restricted":
            permissions = member.permissions or {}
            flags = {name: bool(permissions.get(name, False)) for name in PERMISSION_FIELDS}
            return _ptb_dict(
                telegram.ChatMemberRestricted,
                user=user,
                is_member=member.is_member,
                until_date=_epoch(member.until_date),
                **flags,
            )
        if member.status == "kicked":
            until = _epoch(member.until_date)
            return _ptb_dict(telegram.ChatMemberBanned, user=user, until_date=until)
        if member.status == "member":
            return _ptb_dict(telegram.ChatMemberMember, user=user)
        return _ptb_dict(telegram.ChatMemberLeft, user=user)

    # ---- chats and members -------------------------------------------------------------------

    def _private_chat(self, user: FakeUser) -> _Chat:
        chat = self._chats.get(user.id)
        if chat is None:
            chat = _Chat(
                id=user.id,
                type="private",
                members={user.id: _Member("member"), self.bot_id: _Member("member")},
            )
            self._chats[user.id] = chat
        return chat

    def _owner_of(self, chat: _Chat) -> int:
        return next(
            (uid for uid, m in chat.members.items() if m.status == "creator"), self.bot_id
        )

    def _resolve_chat(self, p: dict[str, Any], *, write: bool) -> _Chat:
        """The chat a call addresses, with Telegram's 400/403 rules. `write`: the call posts
        into the chat, so the private-chat rules (started, not blocked) apply."""
        raw = p.get("chat_id")
        if raw is None or raw == "":
            raise _bad("chat_id is empty")
        if isinstance(raw, str) and raw.startswith("@"):
            wanted = raw[1:].lower()
            chat = next(
                (
                    c for c in self._chats.values()
                    if c.type != "private" and (c.username or "").lower() == wanted
                ),
                None,
            )
        else:
            try:
                chat_id = int(raw)
            except (TypeError, ValueError):
                raise _bad("chat not found") from None
            chat = self._chats.get(chat_id)
            if chat is None and chat_id in self._users:
                chat = self._private_chat(self._users[chat_id])
        if chat is None:
            raise _bad("chat not found")
        if chat.type == "private":
            user = self._users[chat.id]
            if write and user.blocked:
                raise BotAPIError(403, "Forbidden: bot was blocked by the user")
            if write and not user.started:
                raise BotAPIError(403, "Forbidden: bot can't initiate conversation with a user")
        else:
            bot = chat.members.get(self.bot_id)
            kind = "supergroup" if chat.type == "supergroup" else "group"
            if bot is not None and bot.status == "kicked":
                raise BotAPIError(403, f"Forbidden: bot was kicked from the {kind} chat")
            if bot is None or bot.status == "left":
                raise BotAPIError(403, f"Forbidden: bot is not a member of the {kind} chat")
        return chat

    def _chat_of(self, ref: FakeUser | FakeGroup | int) -> _Chat | None:
        if isinstance(ref, FakeGroup):
            return ref._chat
        return self._chats.get(_user_id(ref) if isinstance(ref, FakeUser) else int(ref))

    def _bot_right(self, chat: _Chat, right: str) -> bool:
        bot = chat.members.get(self.bot_id)
        if bot is None:
            return False
        if bot.status == "creator":
            return True
        return bot.status == "administrator" and bool(bot.rights.get(right))

    def _can_post(self, chat: _Chat, user_id: int) -> bool:
        member = chat.members.get(user_id)
        if member is None or member.status in ("left", "kicked"):
            return False
        if member.status == "restricted":
            return member.is_member and bool((member.permissions or {}).get("can_send_messages"))
        if member.status == "member":
            return chat.permissions.get("can_send_messages", True)
        return True

    def _target_user(self, p: dict[str, Any]) -> int:
        user_id = int(p.get("user_id") or 0)
        if user_id not in self._users and user_id != self.bot_id:
            raise _bad("user not found")
        return user_id

    # ---- messages ----------------------------------------------------------------------------

    def _new_message(
        self, chat: _Chat, sender_id: int, text: str | None, **fields: Any
    ) -> _Message:
        msg = _Message(
            chat_id=chat.id,
            message_id=chat.next_message_id,
            date=_now(),
            sender_id=sender_id,
            text=text,
            entities=fields.pop("entities", []),
            **fields,
        )
        chat.next_message_id += 1
        chat.messages[msg.message_id] = msg
        chat.history.append(self._view(msg, "sent"))
        return msg

    def _find_message(self, chat: _Chat, p: dict[str, Any], missing: str) -> _Message:
        raw = p.get("message_id")
        if raw is None and p.get("inline_message_id") is not None:
            raise _bad("MESSAGE_ID_INVALID")
        if raw is None:
            raise _bad("message identifier is not specified")
        msg = chat.messages.get(int(raw))
        if msg is None or msg.deleted:
            raise _bad(missing)
        return msg

    def _render(self, p: dict[str, Any]) -> tuple[str, list[dict[str, Any]], str, str | None]:
        source = p.get("text")
        source = "" if source is None else str(source)
        mode = p.get("parse_mode") or None
        entities = p.get("entities") if isinstance(p.get("entities"), list) else None
        text, parsed = _parse_formatted(source, mode, entities)
        if not text.strip():
            raise _bad("message text is empty")
        if len(text) > MAX_TEXT_LENGTH:
            raise _bad("message is too long")
        return text, parsed, source, mode

    def _reply_target(self, chat: _Chat, p: dict[str, Any]) -> int | None:
        parameters = p.get("reply_parameters")
        if isinstance(parameters, dict) and parameters.get("message_id") is not None:
            message_id = int(parameters["message_id"])
            allow = bool(parameters.get("allow_sending_without_reply"))
        elif p.get("reply_to_message_id") is not None:
            message_id = int(p["reply_to_message_id"])
            allow = bool(p.get("allow_sending_without_reply"))
        else:
            return None
        replied = chat.messages.get(message_id)
        if replied is None or replied.deleted:
            if allow:
                return None
            raise _bad("message to be replied not found")
        return message_id

    def _spend_flood(self, chat: _Chat) -> None:
        if self._flood is not None:
            self._flood.check(chat.id, chat.type != "private")

    def _m_getMe(self, p: dict[str, Any]) -> dict[str, Any]:
        return {
            **self._bot_dict(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy,
            "supports_inline_queries": False,
        }

    def _m_sendMessage(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._resolve_chat(p, write=True)
        text, entities, source, mode = self._render(p)
        markup = _check_reply_markup(p.get("reply_markup"))
        reply_to = self._reply_target(chat, p)
        self._spend_flood(chat)
        options = {
            key: p[key]
            for key in (
                "disable_notification", "protect_content", "link_preview_options",
                "message_thread_id", "disable_web_page_preview",
            )
            if p.get(key) is not None
        }
        if p.get("reply_markup") is not None and markup is None:
            options["reply_markup_sent"] = p["reply_markup"]
        msg = self._new_message(
            chat,
            self.bot_id,
            text,
            entities=entities,
            source_text=source,
            parse_mode=mode,
            reply_markup=markup,
            reply_to_message_id=reply_to,
            options=options,
        )
        return self._message_dict(msg)

    def _m_editMessageText(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._resolve_chat(p, write=True)
        msg = self._find_message(chat, p, "message to edit not found")
        if msg.sender_id != self.bot_id or msg.text is None:
            raise _bad("message can't be edited")
        text, entities, source, mode = self._render(p)
        markup = _check_reply_markup(p.get("reply_markup"))
        if text == msg.text and entities == msg.entities and markup == msg.reply_markup:
            raise _bad(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )
        self._spend_flood(chat)
        msg.text, msg.entities, msg.source_text, msg.parse_mode = text, entities, source, mode
        msg.reply_markup = markup  # no reply_markup in the edit removes the keyboard
        msg.edit_date = _now()
        chat.history.append(self._view(msg, "edited"))
        return self._message_dict(msg)

    def _m_editMessageReplyMarkup(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._resolve_chat(p, write=True)
        msg = self._find_message(chat, p, "message to edit not found")
        if msg.sender_id != self.bot_id:
            raise _bad("message can't be edited")
        markup = _check_reply_markup(p.get("reply_markup"))
        if markup == msg.reply_markup:
            raise _bad(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )
        self._spend_flood(chat)
        msg.reply_markup = markup
        msg.edit_date = _now()
        chat.history.append(self._view(msg, "edited"))
        return self._message_dict(msg)

    def _delete(self, chat: _Chat, message_id: int) -> bool:
        msg = chat.messages.get(message_id)
        if msg is None or msg.deleted:
            return False
        if (
            chat.type != "private"
            and msg.sender_id != self.bot_id
            and not self._bot_right(chat, "can_delete_messages")
        ):
            raise _bad("message can't be deleted")
        msg.deleted = True
        return True

    def _m_deleteMessage(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, write=False)
        if not self._delete(chat, int(p.get("message_id") or 0)):
            raise _bad("message to delete not found")
        return True

    def _m_deleteMessages(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, write=False)
        deleted = [self._delete(chat, int(mid)) for mid in p.get("message_ids") or []]
        if not any(deleted):
            raise _bad("message to delete not found")
        return True

    def _m_answerCallbackQuery(self, p: dict[str, Any]) -> bool:
        query = self._queries.get(str(p.get("callback_query_id") or ""))
        expired = (
            query is not None
            and self.query_timeout is not None
            and self.clock() - query.created > self.query_timeout
        )
        if query is None or query.answer is not None or expired:
            raise _bad(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = p.get("text")
        if text is not None and len(str(text)) > MAX_ANSWER_TEXT_LENGTH:
            raise _bad("MESSAGE_TOO_LONG")
        query.answer = {
            "text": None if text is None else str(text),
            "show_alert": bool(p.get("show_alert")),
            "url": p.get("url"),
            "cache_time": p.get("cache_time"),
        }
        return True

    def _m_sendChatAction(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, write=True)
        action = str(p.get("action") or "")
        if action not in CHAT_ACTIONS:
            raise _bad("wrong parameter action in request")
        self.chat_actions.append((chat.id, action))
        return True

    # ---- chats -------------------------------------------------------------------------------

    def _m_getChat(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._resolve_chat(p, write=False)
        extra: dict[str, Any] = {}
        if chat.type == "private":
            user = self._users[chat.id]
            extra.update(
                first_name=user.first_name, last_name=user.last_name, username=user.username
            )
        else:
            permissions = {name: chat.permissions.get(name, True) for name in PERMISSION_FIELDS}
            extra.update(
                title=chat.title,
                username=chat.username,
                permissions=telegram.ChatPermissions(**permissions),
                invite_link=chat.primary_link,
            )
            if chat.pinned and chat.pinned[-1] in chat.messages:
                pinned = self._message_dict(chat.messages[chat.pinned[-1]])
                extra["pinned_message"] = telegram.Message.de_json(pinned, None)
        return _ptb_dict(
            telegram.ChatFullInfo,
            id=chat.id,
            type=chat.type,
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types=telegram.AcceptedGiftTypes(
                **{
                    name: False
                    for name, param in inspect.signature(
                        telegram.AcceptedGiftTypes.__init__
                    ).parameters.items()
                    if param.default is inspect.Parameter.empty and name != "self"
                }
            ),
            **{k: v for k, v in extra.items() if v is not None},
        )

    def _m_getChatMember(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._resolve_chat(p, write=False)
        return self._member_dict(chat, self._target_user(p))

    def _m_getChatMemberCount(self, p: dict[str, Any]) -> int:
        chat = self._resolve_chat(p, write=False)
        return sum(
            1
            for m in chat.members.values()
            if m.status in ("creator", "administrator", "member")
            or (m.status == "restricted" and m.is_member)
        )

    def _m_getChatAdministrators(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        chat = self._resolve_chat(p, write=False)
        if chat.type == "private":
            raise _bad("there are no administrators in the private chat")
        return [
            self._member_dict(chat, uid)
            for uid, m in chat.members.items()
            if m.status in ("creator", "administrator")
        ]

    def _group_admin_check(self, p: dict[str, Any], right: str, error: str) -> _Chat:
        chat = self._resolve_chat(p, write=False)
        if chat.type == "private":
            raise _bad("method is available for supergroup and channel chats only")
        if not self._bot_right(chat, right):
            raise _bad(error)
        return chat

    def _m_restrictChatMember(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, write=False)
        if chat.type != "supergroup":
            raise _bad("method is available only for supergroups")
        if not self._bot_right(chat, "can_restrict_members"):
            raise _bad("not enough rights to restrict/unrestrict chat member")
        user_id = self._target_user(p)
        if user_id == self.bot_id:
            raise _bad("can't restrict self")
        old = chat.members.get(user_id) or _Member("left", is_member=False)
        if old.status == "creator":
            raise _bad("can't remove chat owner")
        if old.status == "administrator":
            raise _bad("user is an administrator of the chat")
        given = p.get("permissions")
        if not isinstance(given, dict):
            raise _bad("can't parse permissions JSON object")
        given = dict(given)
        if "can_send_media_messages" in given:  # pre-7.0 name for all media flags together
            media = bool(given.pop("can_send_media_messages"))
            for name in ("can_send_audios", "can_send_documents", "can_send_photos",
                         "can_send_videos", "can_send_video_notes", "can_send_voice_notes"):
                given.setdefault(name, media)
        permissions = {name: bool(given.get(name, False)) for name in PERMISSION_FIELDS}
        is_member = old.status in ("member", "restricted") and old.is_member
        until = int(p.get("until_date") or 0)
        if all(permissions.get(name, True) == chat.permissions.get(name, True)
               for name in PERMISSION_FIELDS):
            new = _Member("member" if is_member else "left", is_member=is_member)
        else:
            new = _Member(
                "restricted", permissions=permissions, is_member=is_member, until_date=until
            )
        old_status = old.status
        chat.members[user_id] = new
        self._chat_member_update(chat, user_id, self.bot_id, old_status)
        return True

    def _m_banChatMember(self, p: dict[str, Any]) -> bool:
        chat = self._group_admin_check(
            p, "can_restrict_members", "not enough rights to restrict/unrestrict chat member"
        )
        user_id = self._target_user(p)
        old = chat.members.get(user_id) or _Member("left", is_member=False)
        if old.status == "creator":
            raise _bad("can't remove chat owner")
        if old.status == "administrator":
            raise _bad("user is an administrator of the chat")
        until = int(p.get("until_date") or 0)
        chat.members[user_id] = _Member("kicked", is_member=False, until_date=until)
        self._chat_member_update(chat, user_id, self.bot_id, old.status)
        return True

    def _m_unbanChatMember(self, p: dict[str, Any]) -> bool:
        chat = self._group_admin_check(
            p, "can_restrict_members", "not enough rights to restrict/unrestrict chat member"
        )
        user_id = self._target_user(p)
        old = chat.members.get(user_id) or _Member("left", is_member=False)
        # Unbanning a current member would kick them; only_if_banned=False on a member is a
        # no-op here (Telegram removes them), because the game never wants that.
        if old.status in ("kicked", "left", "restricted") and (
            old.status == "kicked" or not p.get("only_if_banned")
        ):
            chat.members[user_id] = _Member("left", is_member=False)
            self._chat_member_update(chat, user_id, self.bot_id, old.status)
        return True

    def _new_invite_link(self, chat: _Chat) -> str:
        return f"https://t.me/+fake{abs(chat.id)}x{next(self._link_ids)}"

    def _m_exportChatInviteLink(self, p: dict[str, Any]) -> str:
        chat = self._group_admin_check(
            p, "can_invite_users", "not enough rights to manage chat invite link"
        )
        chat.primary_link = self._new_invite_link(chat)
        return chat.primary_link

    def _m_createChatInviteLink(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self._group_admin_check(
            p, "can_invite_users", "not enough rights to manage chat invite link"
        )
        expire = p.get("expire_date")
        link = _ptb_dict(
            telegram.ChatInviteLink,
            invite_link=self._new_invite_link(chat),
            creator=self._ptb_user(self.bot_id),
            creates_join_request=bool(p.get("creates_join_request")),
            is_primary=False,
            is_revoked=False,
            name=p.get("name"),
            expire_date=_epoch(int(expire)) if expire else None,
            member_limit=p.get("member_limit"),
        )
        chat.invite_links.append(link)
        return link

    def _m_pinChatMessage(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, write=True)
        if chat.type != "private" and not self._bot_right(chat, "can_pin_messages"):
            raise _bad("not enough rights to manage pinned messages in the chat")
        msg = self._find_message(chat, p, "message to pin not found")
        if msg.message_id in chat.pinned:
            chat.pinned.remove(msg.message_id)
        chat.pinned.append(msg.message_id)
        return True

    def _m_unpinChatMessage(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, write=False)
        if chat.type != "private" and not self._bot_right(chat, "can_pin_messages"):
            raise _bad("not enough rights to manage pinned messages in the chat")
        message_id = p.get("message_id")
        if message_id is None:
            if chat.pinned:
                chat.pinned.pop()
        elif int(message_id) in chat.pinned:
            chat.pinned.remove(int(message_id))
        return True

    def _m_unpinAllChatMessages(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, write=False)
        if chat.type != "private" and not self._bot_right(chat, "can_pin_messages"):
            raise _bad("not enough rights to manage pinned messages in the chat")
        chat.pinned.clear()
        return True

    def _m_leaveChat(self, p: dict[str, Any]) -> bool:
        chat = self._resolve_chat(p, write=False)
        if chat.type == "private":
            raise _bad("chat member status can't be changed in private chats")
        old = chat.members[self.bot_id].status
        chat.members[self.bot_id] = _Member("left", is_member=False)
        self._my_chat_member_update(chat, self.bot_id, old)
        return True

    # ---- bot profile -------------------------------------------------------------------------

    @staticmethod
    def _scope_key(p: dict[str, Any]) -> tuple[str, str]:
        scope = p.get("scope") or {"type": "default"}
        if isinstance(scope, str):
            scope = json.loads(scope)
        return json.dumps(scope, sort_keys=True), str(p.get("language_code") or "")

    def _m_setMyCommands(self, p: dict[str, Any]) -> bool:
        commands = p.get("commands")
        if not isinstance(commands, list):
            raise _bad("can't parse commands JSON object")
        if len(commands) > MAX_COMMANDS:
            raise _bad("too many commands")
        stored = []
        for command in commands:
            if not isinstance(command, dict):
                raise _bad("can't parse BotCommand JSON object")
            name = str(command.get("command", ""))
            description = str(command.get("description", ""))
            if not _BOT_COMMAND_RE.fullmatch(name):
                raise _bad("BOT_COMMAND_INVALID")
            if not 1 <= len(description) <= 256:
                raise _bad("command description is empty" if not description
                           else "BOT_COMMAND_DESCRIPTION_INVALID")
            stored.append({"command": name, "description": description})
        key = self._scope_key(p)
        if stored:
            self._commands[key] = stored
        else:
            self._commands.pop(key, None)
        return True

    def _m_getMyCommands(self, p: dict[str, Any]) -> list[dict[str, str]]:
        return copy.deepcopy(self._commands.get(self._scope_key(p), []))

    def _m_deleteMyCommands(self, p: dict[str, Any]) -> bool:
        self._commands.pop(self._scope_key(p), None)
        return True

    def _profile_text(self, field_name: str, p: dict[str, Any], value: str | None = None) -> None:
        key = (field_name, str(p.get("language_code") or ""))
        if value:
            self._bot_texts[key] = value
        else:
            self._bot_texts.pop(key, None)

    def _m_setMyName(self, p: dict[str, Any]) -> bool:
        self._profile_text("name", p, p.get("name"))
        return True

    def _m_getMyName(self, p: dict[str, Any]) -> dict[str, str]:
        key = ("name", str(p.get("language_code") or ""))
        return {"name": self._bot_texts.get(key, self.bot_name)}

    def _m_setMyDescription(self, p: dict[str, Any]) -> bool:
        self._profile_text("description", p, p.get("description"))
        return True

    def _m_getMyDescription(self, p: dict[str, Any]) -> dict[str, str]:
        key = ("description", str(p.get("language_code") or ""))
        return {"description": self._bot_texts.get(key, "")}

    def _m_setMyShortDescription(self, p: dict[str, Any]) -> bool:
        self._profile_text("short_description", p, p.get("short_description"))
        return True

    def _m_getMyShortDescription(self, p: dict[str, Any]) -> dict[str, str]:
        key = ("short_description", str(p.get("language_code") or ""))
        return {"short_description": self._bot_texts.get(key, "")}

    # ---- test side: creating the world -------------------------------------------------------

    def user(
        self,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "en",
        *,
        last_name: str | None = None,
    ) -> FakeUser:
        """A new Telegram user (not yet talking to the bot)."""
        user = FakeUser(self, next(self._user_ids), first_name, username, language_code, last_name)
        self._users[user.id] = user
        return user

    def group(
        self,
        title: str,
        members: Iterable[FakeUser] = (),
        *,
        bot_admin: bool = True,
        supergroup: bool = True,
        owner: FakeUser | None = None,
        username: str | None = None,
        bot_rights: dict[str, bool] | None = None,
        announce: bool = False,
    ) -> FakeGroup:
        """A group that already exists with the bot in it.

        `members` join as plain members. The creator is `owner` (who need not be in
        `members`), or a user made up for the purpose, so listed members have no admin rights
        unless given them with `make_admin`. The bot is an administrator with the usual rights
        (overridden by `bot_rights`) when `bot_admin`, else a plain member. Supergroup ids look
        like -100..., basic group ids are small negatives. `announce` also emits the
        my_chat_member update for the bot being added."""
        if supergroup:
            chat_id = -int(f"100{1_000_000_000 + next(self._supergroup_ids)}")
        else:
            chat_id = -next(self._basic_group_ids)
        creator = owner or self.user(f"{title} owner")
        chat = _Chat(
            id=chat_id,
            type="supergroup" if supergroup else "group",
            title=title,
            username=username,
            permissions={name: True for name in PERMISSION_FIELDS},
        )
        chat.members[creator.id] = _Member("creator")
        for member in members:
            if member.id not in chat.members:
                chat.members[member.id] = _Member("member")
        if bot_admin:
            chat.members[self.bot_id] = _Member(
                "administrator", rights={**DEFAULT_ADMIN_RIGHTS, **(bot_rights or {})}
            )
        else:
            chat.members[self.bot_id] = _Member("member")
        self._chats[chat_id] = chat
        if announce:
            self._my_chat_member_update(chat, creator.id, "left")
        return FakeGroup(self, chat)

    # ---- test side: user actions (called through FakeUser) -----------------------------------

    def _bot_sees(self, chat: _Chat, text: str, reply_to: _Message | None) -> bool:
        """Privacy mode: in groups the bot gets commands (not addressed to another bot),
        replies to its own messages and @mentions of it, unless it is an administrator."""
        if chat.type == "private":
            return True
        bot = chat.members.get(self.bot_id)
        if bot is None or bot.status in ("left", "kicked"):
            return False
        if not self.privacy or bot.status in ("administrator", "creator"):
            return True
        me = self.bot_username.lower()
        command = _COMMAND_RE.match(text)
        if command and (command.group(2) is None or command.group(2).lower() == me):
            return True
        if reply_to is not None and reply_to.sender_id == self.bot_id:
            return True
        return any(m.group(1).lower() == me for m in _MENTION_RE.finditer(text))

    def _user_message(
        self,
        user: FakeUser,
        where: FakeGroup | int | None,
        text: str,
        reply_to: Any,
        anonymous: bool,
    ) -> MessageView:
        assert text, "a Telegram client does not send empty messages"
        assert len(text) <= MAX_TEXT_LENGTH, "a Telegram client splits messages over 4096 chars"
        if where is None or where is user or where == user.id:
            assert not user.blocked, f"{user} has blocked the bot; call start() or unblock() first"
            assert not anonymous, "anonymous posting exists only in groups"
            chat = self._private_chat(user)
            user.started = True
        else:
            found = self._chat_of(where)
            assert found is not None and found.type != "private", f"no such group: {where!r}"
            chat = found
            assert self._can_post(chat, user.id), (
                f"{user} cannot post in {chat.title!r} (status "
                f"{(chat.members.get(user.id) or _Member('left')).status}, "
                f"permissions {(chat.members.get(user.id) or _Member('left')).permissions})"
            )
            if anonymous:
                status = chat.members[user.id].status
                assert status in ("creator", "administrator"), (
                    f"{user} is not an admin of {chat.title!r}, so cannot post anonymously"
                )
        replied: _Message | None = None
        if reply_to is not None:
            if isinstance(reply_to, int):
                reply_chat_id, reply_id = chat.id, reply_to
            else:
                reply_chat_id, reply_id = _locate(reply_to)
            assert reply_chat_id == chat.id, "a reply must be in the same chat as its message"
            replied = chat.messages.get(reply_id)
            assert replied is not None and not replied.deleted, f"no message {reply_id} to reply to"
        msg = self._new_message(
            chat,
            GROUP_ANONYMOUS_BOT_ID if anonymous else user.id,
            text,
            entities=_detect_entities(text),
            reply_to_message_id=replied.message_id if replied else None,
            sender_chat=anonymous,
            real_sender_id=user.id,
        )
        if self._bot_sees(chat, text, replied):
            self._emit("message", self._message_dict(msg))
        return self._view(msg)

    def _user_edit(self, user: FakeUser, message: Any, new_text: str) -> MessageView:
        chat_id, message_id = _locate(message)
        chat = self._chats.get(chat_id)
        assert chat is not None, f"no chat {chat_id}"
        msg = chat.messages.get(message_id)
        assert msg is not None and not msg.deleted, f"no message {message_id} in chat {chat_id}"
        assert msg.real_sender_id == user.id, f"{user} can only edit their own messages"
        assert new_text and new_text != msg.text, "a client sends no edit without a change"
        msg.text = new_text
        msg.entities = _detect_entities(new_text)
        msg.edit_date = _now()
        chat.history.append(self._view(msg, "edited"))
        replied = chat.messages.get(msg.reply_to_message_id or 0)
        if self._bot_sees(chat, new_text, replied):
            self._emit("edited_message", self._message_dict(msg))
        return self._view(msg)

    def _visible_chat(self, user: FakeUser, chat_id: int) -> _Chat:
        chat = self._chats.get(chat_id)
        assert chat is not None, f"no chat {chat_id}"
        if chat.type == "private":
            assert chat.id == user.id, f"{user} cannot see the private chat {chat_id}"
            assert not user.blocked, f"{user} has blocked the bot"
        else:
            member = chat.members.get(user.id)
            assert member is not None and member.status not in ("left", "kicked"), (
                f"{user} is not in {chat.title!r}"
            )
        return chat

    def _press(self, user: FakeUser, message: Any, data: str | None, label: str | None) -> str:
        chat_id, message_id = _locate(message)
        chat = self._visible_chat(user, chat_id)
        msg = chat.messages.get(message_id)
        assert msg is not None and not msg.deleted, (
            f"message {message_id} does not exist in chat {chat_id} (deleted?)"
        )
        rows = (msg.reply_markup or {}).get("inline_keyboard", [])
        for row in rows:
            for button in row:
                if (data is not None and button.get("callback_data") == data) or (
                    data is None and button.get("text") == label
                ):
                    assert "callback_data" in button, (
                        f"button {button!r} is not a callback button; pressing it sends nothing"
                    )
                    return self._callback(user, chat, msg, button["callback_data"])
        current = [[b.get("callback_data") or b.get("url") for b in row] for row in rows]
        raise AssertionError(
            f"no button {data or label!r} on the current keyboard of message {message_id} "
            f"in chat {chat_id}: {current or 'no keyboard'}"
        )

    def _forged_press(
        self, user: FakeUser, where: FakeUser | FakeGroup | int, message_id: int, data: str
    ) -> str:
        chat = self._chat_of(where)
        assert chat is not None, f"no chat {where!r}"
        msg = chat.messages.get(message_id)
        if msg is not None and not msg.deleted:
            return self._callback(user, chat, msg, data)
        inaccessible = {"chat": self._chat_dict(chat), "message_id": message_id, "date": 0}
        return self._callback(user, chat, None, data, inaccessible)

    def _callback(
        self,
        user: FakeUser,
        chat: _Chat,
        msg: _Message | None,
        data: str,
        message_dict: dict[str, Any] | None = None,
    ) -> str:
        query_id = str(next(self._query_ids))
        message_id = msg.message_id if msg else int((message_dict or {}).get("message_id", 0))
        self._queries[query_id] = _Query(query_id, user.id, chat.id, message_id, data, self.clock())
        self._emit(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_dict(),
                "chat_instance": str(abs(chat.id) * 7 + 13),
                "data": data,
                "message": self._message_dict(msg) if msg else message_dict,
            },
        )
        return query_id

    def _service_message(self, chat: _Chat, sender_id: int, service: dict[str, Any]) -> None:
        msg = self._new_message(chat, sender_id, None, service=service)
        if chat.members.get(self.bot_id, _Member("left")).status not in ("left", "kicked"):
            self._emit("message", self._message_dict(msg))

    def _chat_member_update(
        self, chat: _Chat, user_id: int, actor_id: int, old_status: str
    ) -> None:
        """A chat_member update (bots get these only when they ask for them in
        allowed_updates, as on Telegram)."""
        old = self._member_dict_for_status(chat, user_id, old_status)
        self._emit(
            "chat_member",
            {
                "chat": self._chat_dict(chat),
                "from": self._user_dict(actor_id),
                "date": _now(),
                "old_chat_member": old,
                "new_chat_member": self._member_dict(chat, user_id),
            },
        )

    def _my_chat_member_update(self, chat: _Chat, actor_id: int, old_status: str) -> None:
        self._emit(
            "my_chat_member",
            {
                "chat": self._chat_dict(chat),
                "from": self._user_dict(actor_id),
                "date": _now(),
                "old_chat_member": self._member_dict_for_status(chat, self.bot_id, old_status),
                "new_chat_member": self._member_dict(chat, self.bot_id),
            },
        )

    def _member_dict_for_status(self, chat: _Chat, user_id: int, status: str) -> dict[str, Any]:
        scratch = _Chat(id=chat.id, type=chat.type)
        scratch.members[user_id] = _Member(
            status,
            rights=dict(DEFAULT_ADMIN_RIGHTS),
            permissions={} if status == "restricted" else None,
            is_member=status not in ("left", "kicked"),
        )
        return self._member_dict(scratch, user_id)

    def _private_status_change(self, user: FakeUser, old: str, new: str) -> None:
        chat = self._private_chat(user)
        chat.members[self.bot_id] = _Member(new)
        self._emit(
            "my_chat_member",
            {
                "chat": self._chat_dict(chat),
                "from": user.to_dict(),
                "date": _now(),
                "old_chat_member": self._member_dict_for_status(chat, self.bot_id, old),
                "new_chat_member": self._member_dict(chat, self.bot_id),
            },
        )
        chat.members[self.bot_id] = _Member("member")  # blocking is tracked on the user

    # ---- test side: reading what happened ----------------------------------------------------

    def messages(
        self, chat: FakeUser | FakeGroup | int, *, include_users: bool = False
    ) -> list[MessageView]:
        """The current state of the bot's messages in a chat (a FakeUser means the private chat
        with them), oldest first, deleted ones left out. `include_users` adds the users'
        messages."""
        found = self._chat_of(chat)
        if found is None:
            return []
        return [
            self._view(m)
            for m in found.messages.values()
            if not m.deleted and (include_users or m.sender_id == self.bot_id)
        ]

    def sent_to(self, user: FakeUser) -> list[MessageView]:
        """The bot's current messages in the private chat with `user`."""
        return self.messages(user)

    def last(self, chat: FakeUser | FakeGroup | int) -> MessageView | None:
        """The bot's newest message in a chat, or None."""
        found = self.messages(chat)
        return found[-1] if found else None

    def history(
        self, chat: FakeUser | FakeGroup | int, *, include_users: bool = False
    ) -> list[MessageView]:
        """Every version of the bot's messages in a chat, in order: each send and each edit
        (event "sent" / "edited"), including messages deleted since. For secrecy checks."""
        found = self._chat_of(chat)
        if found is None:
            return []
        return [v for v in found.history if include_users or v["from_bot"]]

    def all_history(self) -> list[MessageView]:
        """Every version of every bot message in every chat."""
        return [v for chat in self._chats.values() for v in chat.history if v["from_bot"]]

    def pinned(self, chat: FakeUser | FakeGroup | int) -> list[int]:
        """Ids of pinned messages, most recently pinned last."""
        found = self._chat_of(chat)
        return list(found.pinned) if found else []

    def unanswered_queries(self) -> list[str]:
        """Ids of callback queries the bot has not answered (a client shows a spinner until
        the answer comes, so the bot should answer every one)."""
        return [q.id for q in self._queries.values() if q.answer is None]

    def answered(self, query_id: str) -> bool:
        return self._queries[query_id].answer is not None

    def answer(self, query_id: str) -> dict[str, Any]:
        """The full answerCallbackQuery record: text, show_alert, url, cache_time. KeyError if
        the query does not exist or was not answered yet (so it works inside wait_for)."""
        answer = self._queries[query_id].answer
        if answer is None:
            raise KeyError(f"callback query {query_id} has not been answered")
        return dict(answer)

    def answer_for(self, query_id: str) -> str | None:
        """The text the bot answered the callback query with (None: answered without text)."""
        return self.answer(query_id)["text"]

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, str]]:
        """The command list set for exactly this scope (default: {"type": "default"}) and
        language ("" = all languages)."""
        return self._m_getMyCommands({"scope": scope, "language_code": language_code})

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        """Parameters of every call of `method`, in order."""
        return [params for name, params in self.calls if name == method]

    @property
    def flood_rejections(self) -> list[ApiError]:
        return [e for e in self.errors if e.error_code == 429]

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by the bot (a getUpdates with a higher offset)."""
        return len(self._pending)

    async def wait_for(
        self,
        predicate: Callable[[], Any] | Callable[[FakeBotAPI], Any],
        timeout: float = 10.0,
        *,
        what: str | None = None,
    ) -> Any:
        """Poll until `predicate()` (or `predicate(api)`) is truthy and return its value.

        IndexError/KeyError inside the predicate count as "not yet", so
        `lambda: api.sent_to(alice)[-1].text` works before anything was sent. On timeout,
        raises TimeoutError describing the newest messages, errors and pending updates."""
        try:
            takes_api = bool(inspect.signature(predicate).parameters)
        except (TypeError, ValueError):
            takes_api = False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        last_error: BaseException | None = None
        while True:
            try:
                result = predicate(self) if takes_api else predicate()  # type: ignore[call-arg]
                if inspect.isawaitable(result):
                    result = await result
                if result:
                    return result
            except LookupError as error:
                last_error = error
            if loop.time() >= deadline:
                label = what or getattr(predicate, "__name__", repr(predicate))
                reason = f" (last error: {last_error!r})" if last_error else ""
                raise TimeoutError(
                    f"condition {label} not met within {timeout}s{reason}\n{self.describe()}"
                )
            await asyncio.sleep(0.01)

    async def settle(self, quiet: float = 0.15, timeout: float = 10.0) -> None:
        """Wait until the bot fetched every update and made no call for `quiet` seconds; for
        asserting that something did *not* happen."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            fetched = all(u["update_id"] <= self._highest_fetched for u in self._pending)
            if fetched and self._inflight == 0 and loop.time() - self._last_activity >= quiet:
                return
            if loop.time() >= deadline:
                raise TimeoutError(f"the bot did not go quiet within {timeout}s\n{self.describe()}")
            await asyncio.sleep(0.01)

    async def poll_parked(self, timeout: float = 1.0) -> bool:
        """Wait until the bot's newest getUpdates is parked in its long poll (fully received,
        waiting for updates). Stop the Updater only then: cancelling PTB's poll while httpx is
        still sending it can leave httpcore's one-connection pool marked busy, and the Updater's
        final getUpdates then waits out the 1 s pool timeout and logs an error. `polling()` does
        this for you. Returns False if the bot did not park within `timeout`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._parked_generation != self._poll_generation or self._parked_generation < 0:
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.005)
        return True

    def describe(self, last: int = 12) -> str:
        """A readable summary of the recent state, for failure messages."""
        lines = []
        unfetched = [u for u in self._pending if u["update_id"] > self._highest_fetched]
        lines.append(
            f"updates: {len(self._pending)} unconfirmed, {len(unfetched)} never fetched by the bot"
            + ("" if self.calls_to("getUpdates") else " (the bot never called getUpdates)")
        )
        recent: list[MessageView] = []
        for chat in self._chats.values():
            recent.extend(chat.history)
        recent.sort(key=lambda v: v["date"])
        lines.append(f"last {min(last, len(recent))} message versions:")
        for view in recent[-last:]:
            chat = self._chats[view["chat_id"]]
            if chat.type == "private":
                where = f"private {self._users[chat.id].first_name}"
            else:
                where = chat.title or str(chat.id)
            who = "bot" if view["from_bot"] else self._user_dict(view["sender_id"])["first_name"]
            buttons = [
                [b.get("callback_data") or b.get("url") for b in row] for row in view["buttons"]
            ]
            text = view["text"] if len(view["text"]) < 200 else view["text"][:200] + "..."
            lines.append(
                f"  [{where} #{view['message_id']} {view.get('event', '')}] {who}: {text!r}"
                + (f" buttons={buttons}" if buttons else "")
            )
        for error in self.errors[-5:]:
            lines.append(f"  error: {error.method} -> {error.error_code} {error.description}")
        if self.unknown_methods:
            lines.append(f"  unknown methods called: {self.unknown_methods}")
        if self.internal_errors:
            lines.append(f"  internal errors: {self.internal_errors[-3:]}")
        return "\n".join(lines)


#: Started servers by URL, so that `polling()` can find the fake an Application talks to.
_RUNNING: dict[str, FakeBotAPI] = {}


async def _read_params(request: web.Request) -> dict[str, Any]:
    """Decode a Bot API request the way Telegram does: query string, form or multipart (PTB:
    strings raw, everything else JSON-encoded), or a JSON body."""
    params: dict[str, Any] = {}
    for key, value in request.query.items():
        params[key] = _decode_field(key, value)
    if request.method != "POST" or not request.can_read_body:
        return params
    if request.content_type == "application/json":
        body = await request.json()
        if not isinstance(body, dict):
            raise ValueError("JSON body must be an object")
        params.update(body)
        return params
    form = await request.post()
    for key, value in form.items():
        params[key] = _decode_field(key, value) if isinstance(value, str) else value
    return params


def _update_kind(update: dict[str, Any]) -> str:
    return next(key for key in update if key != "update_id")


def _decode_field(key: str, value: str) -> Any:
    if key in STRING_PARAMS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


@contextlib.asynccontextmanager
async def polling(app: Application, *, timeout: int = 1) -> AsyncIterator[Application]:
    """Run `app` with long polling for the duration of the block, stopping it in reverse order.
    `timeout` is the getUpdates long-poll timeout; keep it small so tests end fast."""
    await app.initialize()
    await app.start()
    assert app.updater is not None, "build the Application with an Updater"
    await app.updater.start_polling(poll_interval=0, timeout=timeout)
    try:
        yield app
    finally:
        api = next(
            (api for url, api in _RUNNING.items() if app.bot.base_url.startswith(url)), None
        )
        if api is not None and app.updater.running:
            await api.poll_parked()
        if app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await app.shutdown()


__all__ = [
    "DEFAULT_BOT_USERNAME",
    "DEFAULT_TOKEN",
    "GROUP_ANONYMOUS_BOT_ID",
    "ApiError",
    "BotAPIError",
    "FakeBotAPI",
    "FakeGroup",
    "FakeUser",
    "FloodRules",
    "MessageView",
    "polling",
]
