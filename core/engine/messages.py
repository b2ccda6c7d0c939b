"""What the engine tells people: message keys with parameters and an audience, never prose.

Every key is the English source text of a gettext message (marked with `N_` so Babel extracts
it); adapters render it in the reader's language at delivery time. The audience is part of the
type so that a secret can only ever be addressed to the people allowed to see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def N_(msgid: str) -> str:
    """Mark a string for extraction without translating it (it is translated at the edge)."""
    return msgid


@dataclass(frozen=True, slots=True)
class Audience:
    """Who may read a message: the whole group, one player, a team's members, or the host."""

    kind: str  # "group" | "player" | "team" | "host"
    ref: str | None = None

    def __str__(self) -> str:
        return self.kind if self.ref is None else f"{self.kind}:{self.ref}"


GROUP = Audience("group")
HOST = Audience("host")


def to_player(pid: str) -> Audience:
    return Audience("player", pid)


@dataclass(frozen=True, slots=True)
class Ref:
    """A parameter that names a game object; the renderer turns it into a (translated) word.

    kinds: `player` (a player id), `role`, `side`, `cause`, `action`, `status`.
    """

    kind: str
    value: str


def player(pid: str) -> Ref:
    return Ref("player", pid)


def role(role_id: str) -> Ref:
    return Ref("role", role_id)


def side(side_id: str) -> Ref:
    return Ref("side", side_id)


def cause(cause_id: str) -> Ref:
    return Ref("cause", cause_id)


@dataclass(frozen=True, slots=True)
class Message:
    """One thing to tell an audience.

    `key` is the gettext msgid (English); `plural` and `count` make it an ngettext message.
    `params` values are plain values, `Ref`s, or tuples of `Ref`s (rendered as a list).
    `variants` > 1 means the key is one of several flavour texts and `variant` picks it.
    """

    audience: Audience
    key: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    count: int | None = None

    def param_dict(self) -> dict[str, Any]:
        return dict(self.params)
