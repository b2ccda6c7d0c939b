"""Text formatting as Telegram parses it, and what a Telegram client adds to typed text.

Why it exists: `parse_mode` text is parsed by Telegram, and a bad tag or an unescaped
MarkdownV2 character makes the whole call fail with "can't parse entities: ...". The fake
parses the same way (HTML tag set, MarkdownV2 escaping rules, legacy Markdown), so tests see
both the parse errors and the plain text plus entities users would see. Lengths of texts are
counted after this parsing (Bot API: "1-4096 characters after entities parsing")."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any, ClassVar

from .botapi_errors import bad

COMMAND_RE = re.compile(r"(?<!\S)/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,32}))?(?![A-Za-z0-9_@])")
MENTION_RE = re.compile(r"(?<![\w@/])@([A-Za-z0-9_]{4,32})")
#: What t.me/<bot>?start=<payload> may carry for the client to pass it on (Bot API, deep links).
DEEP_LINK_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def u16len(text: str) -> int:
    """Entity offsets and lengths are counted in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


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
        self.u16 += u16len(text)

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


def parse_formatted(
    source: str, parse_mode: str | None, entities: list[dict[str, Any]] | None
) -> tuple[str, list[dict[str, Any]]]:
    """(text users see, entities). Errors are "can't parse entities: ..." like Telegram's; they
    are flagged as violations, since only a bot bug produces them."""
    mode = (parse_mode or "").lower()
    try:
        if not mode or mode == "none" or not source:
            return source, [dict(e) for e in entities or []]
        if mode == "html":
            return _HTMLEntities(source).parse()
        if mode == "markdownv2":
            return _parse_markdown_v2(source)
        if mode == "markdown":
            return _parse_markdown_legacy(source)
    except _EntityParseError as error:
        raise bad(f"can't parse entities: {error}", violation=True) from None
    raise bad("unsupported parse_mode", violation=True)


def detect_entities(text: str) -> list[dict[str, Any]]:
    """What a Telegram client attaches to a typed message: bot_command and mention entities."""
    found: list[dict[str, Any]] = []
    for regex, kind in ((COMMAND_RE, "bot_command"), (MENTION_RE, "mention")):
        for match in regex.finditer(text):
            found.append(
                {
                    "type": kind,
                    "offset": u16len(text[: match.start()]),
                    "length": u16len(match.group(0)),
                }
            )
    return sorted(found, key=lambda e: e["offset"])




def inline_keyboard(markup: Any) -> dict[str, Any] | None:
    """The inline keyboard a message keeps from `reply_markup` (already validated against the
    spec), normalised for storage: None for no markup, an empty keyboard, or a reply keyboard /
    ForceReply / ReplyKeyboardRemove (Telegram accepts those but never returns them on the
    Message). Empty rows disappear, as on Telegram."""
    if markup is None or markup == "":
        return None
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            raise bad("can't parse reply keyboard markup JSON object", violation=True) from None
    if not isinstance(markup, dict) or not isinstance(markup.get("inline_keyboard"), list):
        return None
    rows = [
        [{k: v for k, v in button.items() if v is not None} for button in row]
        for row in markup["inline_keyboard"]
        if isinstance(row, list) and row
    ]
    return {"inline_keyboard": rows} if rows else None
