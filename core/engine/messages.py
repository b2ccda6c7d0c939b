"""What the engine tells people: message keys with parameters and an audience, never prose.

Every key is the English source text of a gettext message (marked with `N_` so Babel extracts
it); adapters render it in the reader's language at delivery time. The audience is part of the
type so that a secret can only ever be addressed to the people allowed to see it.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple


def N_(msgid: str) -> str:
    """Mark a string for extraction without translating it (it is translated at the edge)."""
    return msgid


class Audience(NamedTuple):
    """Who may read a message: the whole group, one player, a team's members, or the host."""

    kind: str  # "group" | "player" | "team" | "host"
    ref: str | None = None

    def __str__(self) -> str:
        return self.kind if self.ref is None else f"{self.kind}:{self.ref}"


GROUP = Audience("group")
HOST = Audience("host")
# what a rule set tells a player whose action it took (a platform's button shows it itself)
NOTED = N_("Noted. You can change your choice until the phase closes.")


_PLAYER_AUDIENCES: dict[str, Audience] = {}


def to_player(pid: str) -> Audience:
    audience = _PLAYER_AUDIENCES.get(pid)
    if audience is None:
        audience = _PLAYER_AUDIENCES[pid] = Audience("player", pid)
    return audience


class Ref(NamedTuple):
    """A parameter that names a game object; the renderer turns it into a (translated) word.

    kinds: `player` (a player id), `role`, `side`, `cause`, `action`, `status`.
    """

    kind: str
    value: str


# Refs are immutable and named over and over (every message names players and roles), so
# each is made once and shared.
@cache
def player(pid: str) -> Ref:
    return Ref("player", pid)


@cache
def role(role_id: str) -> Ref:
    return Ref("role", role_id)


@cache
def side(side_id: str) -> Ref:
    return Ref("side", side_id)


@cache
def cause(cause_id: str) -> Ref:
    return Ref("cause", cause_id)


class Message(NamedTuple):
    """One thing to tell an audience.

    `key` is the gettext msgid (English); `plural` and `count` make it an ngettext message.
    `params` values are plain values, `Ref`s, or tuples of `Ref`s (rendered as a list).
    (Named tuples rather than dataclasses: games create many of them, and these are cheap.)
    """

    audience: Audience
    key: str
    params: dict[str, Any]
    plural: str | None = None
    # shadows `tuple.count` on purpose: the field names are part of the repr that replays and
    # the digests compare, and `count` is ngettext's word for it
    count: int | None = None  # type: ignore[assignment]

