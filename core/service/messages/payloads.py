"""What an outbox row stores: one typed payload per row, not yet rendered (keys with
parameters, rendered in the reader's language only when delivered), encoded by one codec
under a `kind`.

The kinds mirror what the adapters are handed (`ports.Post`, `Ballot`, `Keyboard`,
`Silence`, `TeamRoom`). Rows written before payloads had a kind (free dicts: `more` for the
further parts, `buttons`, `replace`, `seq`, `silence`, `team`) still decode, so a database
from an earlier version keeps delivering what waits in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, assert_never

from core.engine.log_codec import decode, encode, is_ref
from core.engine.messages import Message, Param, Purpose, Ref, Text


@dataclass(frozen=True, slots=True)
class Part:
    """One text of a message: a gettext key with its parameters (in their JSON form, see
    `codec.encode`); a message of several parts is rendered as paragraphs, except that a
    part with `line` goes on the next line of the paragraph before it (a list, such as the
    summary's one line per player, reads as one block on a phone)."""

    key: str
    plural: str | None = None
    count: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    line: bool = False

    def to_json(self) -> dict[str, Any]:
        data = {"key": self.key, "plural": self.plural, "count": self.count,
                "params": dict(self.params)}
        return {**data, "line": True} if self.line else data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Part:
        return cls(str(data["key"]), data.get("plural"), data.get("count"),
                   data.get("params") or {}, bool(data.get("line")))


@dataclass(frozen=True, slots=True)
class NameLabel:
    """A button that names a player or a role, in the reader's words."""

    ref: Ref


@dataclass(frozen=True, slots=True)
class TextLabel:
    """A button that says a gettext text (`params` in their JSON form, see `codec.encode`)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class WordsLabel:
    """A button in words said as they are (rows of an earlier version hold them)."""

    words: str


Label = NameLabel | TextLabel | WordsLabel


def label_to_json(label: Label) -> dict[str, Any]:
    """A label's stored form: an encoded ref, {"key"[, "params"]}, or {"text"}."""
    match label:
        case NameLabel(ref):
            return dict(encode(ref))
        case TextLabel(key, params):
            return {"key": key, "params": dict(params)} if params else {"key": key}
        case WordsLabel(words):
            return {"text": words}
        case _:
            assert_never(label)


def label_from_json(data: Mapping[str, Any]) -> Label:
    """The label a stored form is, told apart once, here, by its keys."""
    if is_ref(data):
        ref = decode(dict(data))
        assert isinstance(ref, Ref), data
        return NameLabel(ref)
    if "key" in data:
        return TextLabel(str(data["key"]), data.get("params") or {})
    return WordsLabel(str(data["text"]))


@dataclass(frozen=True, slots=True)
class StoredButton:
    """A button as offered: its label untranslated, the token a press carries back, and
    whether it is pressed from the private chat (`start`)."""

    label: Label
    token: str
    start: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"label": label_to_json(self.label), "token": self.token, "start": self.start}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StoredButton:
        return cls(label_from_json(data["label"]), str(data["token"]), bool(data.get("start")))


@dataclass(frozen=True, slots=True)
class PostPayload:
    """A text. `seq` is the game version whose command an engine message came from (None
    for the service's own texts); `locale` the language of where an answer was asked for,
    for a reader who has none of their own; `asks` the person (an `Identity` id) it asks to
    act (see `ports.Post`); `purpose` what the engine told it for (a "noted" acknowledges
    the reader's own choice), kept so that a recap can leave those out without reading
    their words; `delivery_notice` marks the host's notice that a message was not
    delivered, so that the failure of such a notice tells nobody again. `window`: the game
    window the message asks about (a reminder), see `KeyboardPayload`. `in_group`: the
    group chat an answer was asked for in: if the reader's private chat is closed to the bot,
    the answer is given there instead, addressed to him (`outbox.tell_group_unreachable`)."""

    parts: tuple[Part, ...]
    replace: str | None = None
    urgent: bool = False
    seq: int | None = None
    locale: str | None = None
    asks: int | None = None
    purpose: Purpose = Purpose.PLAIN
    delivery_notice: bool = False
    window: int | None = None
    in_group: str | None = None


@dataclass(frozen=True, slots=True)
class BallotPayload:
    """The group's vote; no options in its last version."""

    parts: tuple[Part, ...]
    options: tuple[StoredButton, ...]
    replace: str
    urgent: bool = False


@dataclass(frozen=True, slots=True)
class KeyboardPayload:
    """A message with buttons that is no vote; none in its last version. `asks`: the person
    (an `Identity` id) it asks to act (see `ports.Post`). `window`: the game window whose
    choice it offers (a night prompt): a copy that waited for a reader who could not be
    reached is dropped once that window has closed, rather than sent late."""

    parts: tuple[Part, ...]
    buttons: tuple[StoredButton, ...]
    replace: str | None = None
    urgent: bool = False
    asks: int | None = None
    window: int | None = None


@dataclass(frozen=True, slots=True)
class PicturePayload:
    """The picture of the row's finished game, with a caption; drawn when delivered. It is
    never edited (`replace` is there for what every message kind is asked)."""

    parts: tuple[Part, ...]
    urgent: bool = False
    replace: None = None


@dataclass(frozen=True, slots=True)
class SilencePayload:
    user: str  # the person's ref
    muted: bool


@dataclass(frozen=True, slots=True)
class TeamPayload:
    key: str
    title: str  # gettext keys, rendered in the game's language
    about: str
    members: tuple[str, ...]  # the members' refs
    closed: bool = False


TextPayload = PostPayload | BallotPayload | KeyboardPayload | PicturePayload
Payload = TextPayload | SilencePayload | TeamPayload
ORDERS = (SilencePayload, TeamPayload)  # rows that change a chat rather than post to it


def part(key: str, plural: str | None = None, count: int | None = None,
         **params: Param) -> Part:
    """A service text (not from the engine); a `count` is a parameter as well."""
    if count is not None:
        params["count"] = count
    return Part(key, plural, count, encode(params))


def post(key: str, plural: str | None = None, count: int | None = None,
         **params: Param) -> PostPayload:
    """A service text of one part."""
    return PostPayload((part(key, plural, count, **params),))


def text_part(text: Text) -> Part:
    """A `Text` (an engine message's, a refusal's, a reply's) as a stored part."""
    params = dict(text.params)
    if text.count is not None:
        params["count"] = text.count
    return Part(text.key, text.plural, text.count, encode(params))


def message_part(message: Message) -> Part:
    """An engine message's text."""
    text = message.text
    return Part(text.key, text.plural, text.count, encode(text.params))


# ---------------------------------------------------------------------- the codec
def to_json(payload: Payload) -> dict[str, Any]:
    if isinstance(payload, PostPayload):
        return {"kind": "post", "parts": _parts_json(payload.parts),
                "replace": payload.replace, "urgent": payload.urgent, "seq": payload.seq,
                "locale": payload.locale, **_asks_json(payload.asks),
                **_purpose_json(payload.purpose),
                **({"delivery_notice": True} if payload.delivery_notice else {}),
                **_window_json(payload.window),
                **({"in_group": payload.in_group} if payload.in_group else {})}
    if isinstance(payload, BallotPayload):
        return {"kind": "ballot", "parts": _parts_json(payload.parts),
                "options": [b.to_json() for b in payload.options],
                "replace": payload.replace, "urgent": payload.urgent}
    if isinstance(payload, KeyboardPayload):
        return {"kind": "keyboard", "parts": _parts_json(payload.parts),
                "buttons": [b.to_json() for b in payload.buttons],
                "replace": payload.replace, "urgent": payload.urgent,
                **_asks_json(payload.asks), **_window_json(payload.window)}
    if isinstance(payload, PicturePayload):
        return {"kind": "picture", "parts": _parts_json(payload.parts),
                "urgent": payload.urgent}
    if isinstance(payload, SilencePayload):
        return {"kind": "silence", "user": payload.user, "muted": payload.muted}
    return {"kind": "team", "key": payload.key, "title": payload.title,
            "about": payload.about, "members": list(payload.members),
            "closed": payload.closed}


def from_json(data: Mapping[str, Any]) -> Payload:
    kind = data.get("kind")
    if kind is None:
        return _from_untyped(data)
    if kind == "post":
        return PostPayload(_parts(data["parts"]), data.get("replace"),
                           bool(data.get("urgent")), data.get("seq"), data.get("locale"),
                           data.get("asks"), Purpose(data.get("purpose", Purpose.PLAIN)),
                           bool(data.get("delivery_notice")), data.get("window"),
                           data.get("in_group"))
    if kind == "ballot":
        return BallotPayload(_parts(data["parts"]), _buttons(data["options"]),
                             str(data["replace"]), bool(data.get("urgent")))
    if kind == "keyboard":
        return KeyboardPayload(_parts(data["parts"]), _buttons(data["buttons"]),
                               data.get("replace"), bool(data.get("urgent")), data.get("asks"),
                               data.get("window"))
    if kind == "picture":
        return PicturePayload(_parts(data["parts"]), bool(data.get("urgent")))
    if kind == "silence":
        return SilencePayload(str(data["user"]), bool(data["muted"]))
    if kind == "team":
        return TeamPayload(str(data["key"]), str(data["title"]), str(data["about"]),
                           tuple(data["members"]), bool(data.get("closed")))
    raise ValueError(f"unknown outbox payload kind {kind!r}")


LEGACY_BALLOT = "ballot-"  # the key every version of a group ballot had before kinds


def _from_untyped(data: Mapping[str, Any]) -> Payload:
    """A row of the shape before kinds: its kind worked out once, here, from that shape (a
    ballot by its key, whose closing version had no buttons; a keyboard by its buttons)."""
    if "silence" in data:
        order = data["silence"]
        return SilencePayload(str(order["user"]), bool(order["muted"]))
    if "team" in data:
        team = data["team"]
        return TeamPayload(str(team["key"]), str(team["title"]), str(team["about"]),
                           tuple(team["members"]), bool(team.get("closed")))
    parts = _parts([data, *data.get("more", ())])
    buttons = _buttons(data.get("buttons") or [])
    replace, urgent = data.get("replace"), bool(data.get("urgent"))
    if replace and str(replace).startswith(LEGACY_BALLOT):
        return BallotPayload(parts, buttons, str(replace), urgent)
    if buttons:
        return KeyboardPayload(parts, buttons, replace, urgent)
    return PostPayload(parts, replace, urgent, data.get("seq"), data.get("locale"))


def _asks_json(asks: int | None) -> dict[str, int]:
    """The `asks` key only where a message asks someone (rows stay as they were otherwise)."""
    return {} if asks is None else {"asks": asks}


def _window_json(window: int | None) -> dict[str, int]:
    """The `window` key only where a message belongs to one (rows stay as they were
    otherwise)."""
    return {} if window is None else {"window": window}


def _purpose_json(purpose: Purpose) -> dict[str, str]:
    """The `purpose` key only where a message is more than told (rows stay as they were
    otherwise, and a row written before purposes reads as a plain one)."""
    return {} if purpose is Purpose.PLAIN else {"purpose": purpose.value}


def _parts_json(parts: tuple[Part, ...]) -> list[dict[str, Any]]:
    return [p.to_json() for p in parts]


def _parts(items: Any) -> tuple[Part, ...]:
    return tuple(Part.from_json(p) for p in items)


def _buttons(items: Any) -> tuple[StoredButton, ...]:
    return tuple(StoredButton.from_json(b) for b in items)
