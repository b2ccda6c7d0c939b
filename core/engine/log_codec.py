"""JSON forms of engine commands, of a game's setup and of message parameters: the event log's
codec, below the service that writes the log and the story that reads it (and used by the
outbox for its parameters)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from core.engine import commands as c
from core.engine.messages import Either, Ref, RefKind, Tally, Text, WithRole
from core.engine.outcome import GameSetup
from core.engine.phase import Phase

_COMMANDS: dict[str, type] = {cls.__name__: cls for cls in (
    c.Act, c.Vote, c.MarkEarly, c.Say, c.Whisper, c.Leave, c.Close, c.Tick, *c.HOST_COMMANDS)}
_POWERS: dict[str, type] = {cls.power: cls for cls in c.HOST_COMMANDS}


def setup_to_json(setup: GameSetup) -> dict[str, Any]:
    return {"ruleset": setup.ruleset, "players": [list(p) for p in setup.players],
            "seed": setup.seed, "roles": None if setup.roles is None else list(setup.roles),
            "options": [list(o) for o in setup.options], "setup": [list(s) for s in setup.setup],
            "start": setup.start, "at": setup.at}


def setup_from_json(data: dict[str, Any]) -> GameSetup:
    return GameSetup(
        ruleset=data["ruleset"], players=tuple((p[0], p[1]) for p in data["players"]),
        seed=data["seed"], roles=None if data["roles"] is None else tuple(data["roles"]),
        options=tuple((o[0], o[1]) for o in data["options"]),
        setup=tuple((s[0], s[1]) for s in data["setup"]), start=data["start"],
        at=float(data.get("at", 0.0)))  # games begun before setups knew their time: 0


def command_to_json(command: c.Command) -> dict[str, Any]:
    data = asdict(command)
    if "targets" in data:
        data["targets"] = list(data["targets"])
    return {"type": type(command).__name__, **data}


def command_from_json(data: dict[str, Any]) -> c.Command:
    fields = dict(data)
    kind = fields.pop("type")
    if kind == "Host":
        return _old_host(fields)
    cls = _COMMANDS[kind]
    if "targets" in fields:
        fields["targets"] = tuple(fields["targets"])
    return cls(**fields)  # type: ignore[no-any-return]


def _old_host(fields: dict[str, Any]) -> c.Command:
    """A host command as logs before one command per power stored it: `Host(command, target,
    by, minutes, text, at, extra)`, where `by` was the newcomer's name in a replacement and
    `extra` said whether the service paused an unreachable game."""
    cls = _POWERS[fields["command"]]
    at = fields.get("at", 0.0)
    if cls is c.Pause:
        return c.Pause((fields.get("extra") or {}).get("reason") == "unreachable", at=at)
    if cls is c.Extend:
        return c.Extend(fields.get("minutes") or 0, at=at)
    if cls is c.Modkill:
        return c.Modkill(fields["target"], at=at)
    if cls is c.Replace:
        return c.Replace(fields["target"], fields.get("by") or "", at=at)
    if cls is c.Announce:
        return c.Announce(fields.get("text") or "", at=at)
    return cls(at=at)  # type: ignore[no-any-return]


# The tags of encoded values. A parameter's name is a Python identifier (it fills a
# `{placeholder}`), so a key starting with "$" can never be a parameter: a parameter named
# `text`, `ref` or `list` (the host's announcement, the Mare Do Well's letter) is never taken
# for an encoded value.
REF, TEXT, LIST, EITHER = "$ref", "$text", "$list", "$or"
TAGS = frozenset((REF, TEXT, LIST, EITHER))


def encode(value: Any) -> Any:
    """Refs, tuples and counted phrases (a `Text` as a parameter) become JSON values tagged
    with their type; a dict (a text's parameters) keeps its keys. A phase (in the event log,
    never a text's parameter: texts name phases by `Ref("phase")`) is its name, as the logs
    read by hosts and tools have always had it."""
    if isinstance(value, Ref):
        return {REF: [value.kind, value.value]}
    if isinstance(value, Text):
        return {TEXT: [value.key, value.plural, value.count, encode(dict(value.params))]}
    if isinstance(value, Phase):
        return str(value)
    if isinstance(value, Either):  # before any tuple: a named tuple of its own
        return {EITHER: [encode(v) for v in value.items]}
    if isinstance(value, tuple):
        return {LIST: [encode(v) for v in value]}
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return {LIST: sorted(encode(v) for v in value)}
    return value


def is_ref(value: Any) -> bool:
    """Whether an encoded value is a `Ref` (a button's label naming a player or a role)."""
    return isinstance(value, dict) and REF in value


def decode(value: Any) -> Any:
    """The inverse of `encode`: a dict is a tagged value only by its "$" tag."""
    if isinstance(value, dict):
        if len(value) == 1:
            ((tag, inner),) = value.items()
            if tag in TAGS:
                return _tagged(tag, inner)
            legacy = _legacy(tag, inner)
            if legacy is not None:
                return legacy
        return {k: decode(v) for k, v in value.items()}
    return value


def _tagged(tag: str, inner: Any) -> Any:
    if tag == REF:
        return Ref(inner[0], inner[1])
    if tag == TEXT:
        key, plural, count, params = inner
        return Text(key, decode(params), plural, count)
    if tag == EITHER:
        return Either(tuple(decode(v) for v in inner))
    return _listed(tuple(decode(v) for v in inner))


def _legacy(tag: str, inner: Any) -> Any:
    """A value written before the tags (outbox rows and stored button labels of an earlier
    version still waiting in the database). Those tags were bare words, but a free text or a
    name was never stored as a list, so only the exact shapes below are read as them."""
    if not isinstance(inner, list):
        return None
    if tag == "ref" and len(inner) == 2 and all(isinstance(v, str) for v in inner):
        return Ref(inner[0], inner[1])
    if (tag == "text" and len(inner) == 4 and isinstance(inner[0], str)
            and isinstance(inner[3], dict)):
        return Text(inner[0], decode(inner[3]), inner[1], inner[2])
    if tag == "list":
        return _listed(tuple(decode(v) for v in inner))
    return None


def _listed(items: tuple[Any, ...]) -> Any:
    """A stored list as the parameter it was: a `Tally` and a `WithRole` are named tuples,
    stored as lists of two (so a row reads as rows always have), and only they are a list of
    a ref and a number or of a player and a role; they are told apart here, once, so the
    renderer never has to guess."""
    if len(items) == 2 and isinstance(items[0], Ref):
        first, second = items
        if isinstance(second, int):
            return Tally(first, second)
        if isinstance(second, Ref) and first.kind == RefKind.PLAYER and second.kind == RefKind.ROLE:
            return WithRole(first, second)
    return items
