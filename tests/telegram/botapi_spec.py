"""Request validation from `botapi_methods.json`: the Bot API's parameter table as data.

Why it exists: a fake that accepts whatever a bot sends hides the bugs Telegram would show in
production: a parameter name with a typo (Telegram silently ignores it, so the feature quietly
does nothing), a wrong type, a text one character over the limit, 65 bytes of callback data, a
deep link whose payload the client will drop. Every request the fake receives is checked here
before its method runs. Each problem becomes a readable line in `FakeBotAPI.violations` (the
test fixtures fail a test that left any), and the problems Telegram rejects are answered with
Telegram's own 400 description, so the bot sees exactly what it would see in production.

The table (methods, parameters, types, required flags, limits, error texts) is data, written
from the official documentation; this module only interprets it. See the "keys" entry of the
JSON file for what each limit means."""

from __future__ import annotations

import difflib
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from .botapi_errors import BotAPIError
from .botapi_format import DEEP_LINK_RE, parse_formatted

SPEC_PATH = Path(__file__).with_name("botapi_methods.json")

_SCALARS = frozenset({"Integer", "String", "Boolean", "Float", "True", "InputFile"})
_INT_RE = re.compile(r"-?\d+")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a request. `reject`: Telegram answers 400 with `description`;
    otherwise Telegram accepts the request (ignoring the part in question) and the problem is
    only recorded."""

    where: str
    description: str
    reject: bool = True

    def __str__(self) -> str:
        return f"{self.where}: {self.description}"


def _alternatives(type_name: str) -> list[str]:
    return [part.strip() for part in type_name.split(" or ")]


def _is_file(value: Any) -> bool:
    """An uploaded file (aiohttp's FileField) or raw bytes."""
    return (hasattr(value, "file") and hasattr(value, "filename")) or isinstance(
        value, bytes | bytearray
    )


class BotAPISpec:
    """The loaded table. One instance is shared (`BotAPISpec.load()`); it is read-only."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.version: str = data.get("bot_api_version", "")
        self.methods: dict[str, dict[str, Any]] = data["methods"]
        self.objects: dict[str, dict[str, Any]] = data["objects"]
        self.update_kinds: tuple[str, ...] = tuple(data.get("update_kinds", ()))
        self._by_lower = {name.lower(): name for name in self.methods}

    @classmethod
    @functools.cache
    def load(cls, path: Path = SPEC_PATH) -> BotAPISpec:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    # ---- lookups ------------------------------------------------------------------------------

    def canonical(self, method: str) -> str | None:
        """The documented spelling of a method name (Telegram matches them case-insensitively)."""
        return self._by_lower.get(method.lower())

    def access(self, method: str) -> str | None:
        """How the server checks the chat before the method runs: read, read_members, edit or
        write (None: the method addresses no chat)."""
        entry = self.methods.get(method)
        return entry.get("access") if entry else None

    def params(self, method: str) -> dict[str, dict[str, Any]]:
        return self.methods[method]["params"]

    # ---- decoding -----------------------------------------------------------------------------

    def decode(self, method: str | None, key: str, value: Any) -> Any:
        """Turn one form or query-string value into what the bot meant, by the parameter's
        documented type (PTB sends strings raw and JSON-encodes everything else; decoding a
        String parameter as JSON would turn the text "123" into a number)."""
        if not isinstance(value, str):
            return value
        spec = self.methods.get(method or "", {}).get("params", {}).get(key)
        types = _alternatives(spec["type"]) if spec else []
        if "String" in types and "Integer" not in types:
            return value
        if "String" in types:  # Integer or String: a chat id or an @username
            return int(value) if _INT_RE.fullmatch(value.strip()) else value
        try:
            return json.loads(value)
        except ValueError:
            return value

    # ---- validation ---------------------------------------------------------------------------

    def check(
        self, method: str, params: dict[str, Any], *, bot_username: str | None = None
    ) -> list[Problem]:
        """Every problem of one request, rejecting ones first in parameter order."""
        problems: list[Problem] = []
        spec = self.params(method)
        for key in params:
            if key not in spec:
                close = difflib.get_close_matches(key, list(spec), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                problems.append(
                    Problem(
                        f"{method}.{key}",
                        f"unknown parameter {key!r}{hint}; Telegram ignores it",
                        reject=False,
                    )
                )
        for key, rule in spec.items():
            where = f"{method}.{key}"
            value = params.get(key)
            if value is None or (value == "" and rule["type"] != "String"):
                if rule.get("required"):
                    problems.append(
                        Problem(where, rule.get("missing") or f"parameter {key!r} is required")
                    )
                continue
            if rule.get("deprecated"):
                problems.append(
                    Problem(
                        where,
                        f"{key!r} is no longer documented; use {rule['deprecated']} "
                        "(Telegram still reads it)",
                        reject=False,
                    )
                )
            _Checker(self, problems, bot_username).value(value, rule, where, key, top=True)
            if rule.get("counted") == "after entities" and isinstance(value, str):
                self._check_parsed_length(params, rule, where, problems)
        problems.sort(key=lambda p: not p.reject)
        return problems

    def _check_parsed_length(
        self, params: dict[str, Any], rule: dict[str, Any], where: str, problems: list[Problem]
    ) -> None:
        source = params[where.rsplit(".", 1)[1]]
        entities = params.get(rule.get("entities", ""))
        try:
            text, _ = parse_formatted(
                source,
                params.get(rule.get("parse_mode", "")) or None,
                entities if isinstance(entities, list) else None,
            )
        except BotAPIError as error:
            problems.append(Problem(where, error.description.removeprefix("Bad Request: ")))
            return
        low, high = rule["length"]
        if len(text.strip()) < low:
            problems.append(Problem(where, rule.get("too_short") or "text is empty"))
        elif len(text) > high:
            problems.append(
                Problem(where, rule.get("too_long") or f"text is longer than {high} characters")
            )


class _Checker:
    """One walk over a parameter value, collecting problems."""

    def __init__(self, spec: BotAPISpec, problems: list[Problem], bot: str | None) -> None:
        self.spec = spec
        self.problems = problems
        self.bot = bot

    def add(self, where: str, description: str, reject: bool = True) -> None:
        self.problems.append(Problem(where, description, reject))

    # ---- types --------------------------------------------------------------------------------

    def _matches(self, value: Any, type_name: str, top: bool) -> bool:
        if type_name.startswith("Array of "):
            return isinstance(value, list)
        if type_name == "Integer":
            return (isinstance(value, int) and not isinstance(value, bool)) or (
                isinstance(value, str) and bool(_INT_RE.fullmatch(value))
            )
        if type_name == "Float":
            return isinstance(value, int | float) and not isinstance(value, bool)
        if type_name == "String":
            # the server reads top-level parameters as text, and td's JSON reader turns
            # numbers into strings, so only objects, arrays and booleans are refused here
            return isinstance(value, str) or (
                isinstance(value, int | float) and not isinstance(value, bool)
            ) or (top and isinstance(value, bool))
        if type_name == "Boolean":
            return isinstance(value, bool) or (top and value in ("true", "false", "1", "0"))
        if type_name == "True":
            return value is True or (top and value in ("true", "1"))
        if type_name == "InputFile":
            return _is_file(value)
        return isinstance(value, dict)  # an object type

    def value(
        self, value: Any, rule: dict[str, Any], where: str, name: str, *, top: bool = False,
        context: str | None = None,
    ) -> None:
        alternatives = _alternatives(rule["type"])
        chosen = next((t for t in alternatives if self._matches(value, t, top)), None)
        if chosen is None:
            if top and isinstance(value, str) and any(t not in _SCALARS for t in alternatives):
                obj = self.spec.objects.get(alternatives[0].removeprefix("Array of "), {})
                label = obj.get("context", f"can't parse {name} JSON object")
                if not label.endswith("JSON object"):
                    label = f"can't parse {name} JSON object"
                self.add(where, label)
            elif context:
                self.add(where, f'{context}: Field "{name}" must be of type {rule["type"]}')
            else:
                self.add(where, f'parameter "{name}" must be of type {rule["type"]}')
            return
        if chosen.startswith("Array of "):
            self._array(value, chosen.removeprefix("Array of "), rule, where, name, context)
        elif chosen not in _SCALARS:
            candidates = [t for t in alternatives if t not in _SCALARS]
            self._object(value, candidates, where)
        elif isinstance(value, str):
            self._string(value, rule, where)

    def _array(
        self, items: list[Any], item_type: str, rule: dict[str, Any], where: str, name: str,
        context: str | None,
    ) -> None:
        if "items" in rule:
            low, high = rule["items"]
            if len(items) < low:
                self.add(where, rule.get("too_few") or f"{name} needs at least {low} items")
            elif len(items) > high:
                self.add(where, rule.get("too_many") or f"{name} takes at most {high} items")
        if "max_per_row" in rule:
            rows = [row for row in items if isinstance(row, list)]
            if any(len(row) > rule["max_per_row"] for row in rows) or sum(
                len(row) for row in rows
            ) > rule["max_total"]:
                self.add(where, rule.get("too_many") or "reply markup is too long")
        inner = {"type": item_type}
        for i, item in enumerate(items):
            if item_type.startswith("Array of ") and not isinstance(item, list):
                self.add(
                    f"{where}[{i}]",
                    f'Field "{name}" must be an Array of Arrays'
                    if context is None else f'{context}: Field "{name}" must be an Array of Arrays',
                )
                continue
            self.value(item, inner, f"{where}[{i}]", name, context=context)

    def _object(self, value: dict[str, Any], candidates: list[str], where: str) -> None:
        known = [c for c in candidates if c in self.spec.objects]
        if not known:
            return  # a type the table does not describe: any object passes
        # alternatives of a union (reply markups) are told apart by their required fields
        type_name = next(
            (
                c for c in known
                if all(
                    k in value for k, f in self.spec.objects[c].get("fields", {}).items()
                    if f.get("required")
                )
            ),
            None,
        )
        if type_name is None:
            if len(known) > 1:
                self.add(where, f"matches none of {', '.join(known)}; Telegram ignores it",
                         reject=False)
                return
            type_name = known[0]
        entry = self.spec.objects[type_name]
        context = entry.get("context", f"can't parse {type_name}")
        if "one_of" in entry:
            tag = value.get(entry.get("by") or "type")
            concrete = next(
                (
                    sub for sub in entry["one_of"]
                    if self.spec.objects.get(sub, {}).get("fields", {}).get("type", {}).get("const")
                    == tag
                ),
                None,
            )
            if concrete is None:
                self.add(where, f"{context}: Unsupported type specified")
                return
            entry = self.spec.objects[concrete]
        fields = entry.get("fields", {})
        for key in value:
            if key not in fields:
                close = difflib.get_close_matches(key, list(fields), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.add(f"{where}.{key}", f"unknown field {key!r} of {type_name}{hint}; "
                         "Telegram ignores it", reject=False)
        for key, rule in fields.items():
            item = value.get(key)
            if item is None or (item == "" and rule.get("empty_is_absent")):
                if rule.get("required"):
                    self.add(where, f"{context}: Can't find field \"{key}\"")
                continue
            if rule.get("deprecated"):
                self.add(f"{where}.{key}", f"{key!r} is no longer documented; use "
                         f"{rule['deprecated']} (Telegram still reads it)", reject=False)
            self.value(item, rule, f"{where}.{key}", key, context=context)
        if "actions" in entry:
            present = [
                a for a in entry["actions"]
                if value.get(a) is not None
                and not (value.get(a) == "" and fields.get(a, {}).get("empty_is_absent"))
            ]
            if not present:
                self.add(where, f"{context}: {entry['no_action']}")
            elif len(present) > 1:
                self.add(where, f"a button with {' and '.join(present)}: Telegram uses only "
                         f"{present[0]}", reject=False)

    # ---- scalar limits ------------------------------------------------------------------------

    def _string(self, value: str, rule: dict[str, Any], where: str) -> None:
        if "length" in rule and rule.get("counted") != "after entities":
            low, high = rule["length"]
            if len(value) < low:
                self.add(where, rule.get("too_short") or f"must be at least {low} characters")
                return
            if len(value) > high:
                self.add(where, rule.get("too_long") or f"must be at most {high} characters")
                return
        if "bytes" in rule:
            low, high = rule["bytes"]
            size = len(value.encode())
            if not low <= size <= high:
                self.add(where, rule.get("too_long" if size > high else "too_short")
                         or f"must be {low}-{high} bytes")
                return
        if "pattern" in rule and not re.fullmatch(rule["pattern"], value):
            self.add(where, rule.get("invalid") or f"must match {rule['pattern']}")
            return
        if "enum" in rule and value not in rule["enum"]:
            self.add(where, rule.get("invalid") or f"must be one of {rule['enum']}")
            return
        if rule.get("url"):
            self._url(value, rule, where)

    def _url(self, url: str, rule: dict[str, Any], where: str) -> None:
        if not url.strip() or re.search(r"\s", url):
            self.add(where, rule.get("invalid") or "invalid URL")
            return
        parsed = urlparse(url if "://" in url else f"https://{url}")
        if (parsed.hostname or "").lower() not in ("t.me", "telegram.me", "telegram.dog"):
            return
        query = parse_qs(parsed.query, keep_blank_values=True)
        for key in ("start", "startgroup"):
            for payload in query.get(key, []):
                if not DEEP_LINK_RE.fullmatch(payload):
                    self.add(where, f"deep link {key}={payload!r} is not 1-64 characters of "
                             "A-Za-z0-9_-: Telegram accepts the button, but clients drop the "
                             "payload", reject=False)
            target = parsed.path.strip("/").split("/")[0]
            if query.get(key) and self.bot and target.lower() != self.bot.lower():
                self.add(where, f"deep link to @{target}, not to this bot (@{self.bot})",
                         reject=False)


__all__ = ["SPEC_PATH", "BotAPISpec", "Problem"]
