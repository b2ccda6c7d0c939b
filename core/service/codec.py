"""JSON forms of engine commands and of message parameters, for the event log and the outbox."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from core.engine import commands as c
from core.engine.messages import Ref, Text
from core.engine.phase import Phase

_COMMANDS: dict[str, type] = {cls.__name__: cls for cls in (
    c.Act, c.Vote, c.MarkEarly, c.Say, c.Whisper, c.Leave, c.Close, c.Tick, *c.HOST_COMMANDS)}
_POWERS: dict[str, type] = {cls.power: cls for cls in c.HOST_COMMANDS}


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


def encode(value: Any) -> Any:
    """Refs, tuples, counted phrases (a `Text` as a parameter) and phases become tagged JSON
    values."""
    if isinstance(value, Ref):
        return {"ref": [value.kind, value.value]}
    if isinstance(value, Text):
        return {"text": [value.key, value.plural, value.count, encode(dict(value.params))]}
    if isinstance(value, Phase):
        return str(value)
    if isinstance(value, tuple):
        return {"list": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(encode(v) for v in value)
    return value


def decode(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"ref"}:
            return Ref(value["ref"][0], value["ref"][1])
        if set(value) == {"text"}:
            key, plural, count, params = value["text"]
            return Text(key, decode(params), plural, count)
        if set(value) == {"list"}:
            return tuple(decode(v) for v in value["list"])
        return {k: decode(v) for k, v in value.items()}
    return value
