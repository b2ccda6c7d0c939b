"""What the engine tells people: texts with parameters and an audience, never prose.

A `Text` is a gettext message id (the English source text, marked with `N_` so Babel extracts
it) with its parameters; adapters render it in the reader's language at delivery time. The
same `Text` is what a refusal, a service reply and a setup error carry. The audience is part
of the type so that a secret can only ever be addressed to the people allowed to see it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import ClassVar, NamedTuple

from .ids import PlayerId
from .quick_init import quick_init


def N_(msgid: str) -> str:
    """Mark a string for extraction without translating it (it is translated at the edge)."""
    return msgid


ROLE_WAS = "role was"  # the gettext context of a role's running-text form ("der Depp")


def n_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a text with plural forms for extraction; rendered by ngettext with its count."""
    return singular, plural


def NC_(context: str, msgid: str) -> str:
    """Mark a string with a gettext context (the same English, another use) for extraction."""
    return msgid


class Text(NamedTuple):
    """A translatable text: `key` is the gettext msgid (English); `plural` and `count` make it
    an ngettext message. `params` fill its placeholders, each a `Param`. (A named tuple: a
    game tells hundreds, and these are made fast.)"""

    key: str
    params: Mapping[str, Param]
    plural: str | None = None
    count: int | None = None  # type: ignore[assignment]  # ngettext's word; shadows tuple.count


def counted(pair: tuple[str, str], count: int) -> Text:
    """A phrase with its own plural forms (an `n_` pair with `{count}`), as a parameter of a
    sentence that agrees with something else: gettext gives a message one count only."""
    return Text(pair[0], {"count": count}, pair[1], count)


@dataclass(frozen=True, slots=True)
class Group:
    """Everybody in the game's chat."""

    kind: ClassVar[str] = "group"

    @property
    def ref(self) -> None:
        return None

    def __str__(self) -> str:
        return self.kind


@quick_init  # told something at nearly every action
@dataclass(frozen=True, slots=True)
class ToPlayer:
    """One player, privately."""

    pid: PlayerId
    kind: ClassVar[str] = "player"

    @property
    def ref(self) -> PlayerId:
        return self.pid

    def __str__(self) -> str:
        return f"{self.kind}:{self.pid}"


@cache
def to_player(pid: PlayerId) -> ToPlayer:
    """`ToPlayer(pid)`, found rather than built: a rule set tells the player "Noted" at every
    action he takes, and a frozen dataclass costs more to build than to look up. (The record is
    immutable, so sharing it is safe. Kept without a bound, as the player's `Ref` is: one
    small record per player the process has seen, and an unbounded cache is found by a
    shorter path than a bounded one, which keeps its entries in order of use.)"""
    return ToPlayer(pid)


@dataclass(frozen=True, slots=True)
class ToTeam:
    """The members of a team chat (a `TeamChat` key) at the time the message is delivered."""

    team: str
    kind: ClassVar[str] = "team"

    @property
    def ref(self) -> str:
        return self.team

    def __str__(self) -> str:
        return f"{self.kind}:{self.team}"


@dataclass(frozen=True, slots=True)
class ToHost:
    """The game's host, privately."""

    kind: ClassVar[str] = "host"

    @property
    def ref(self) -> None:
        return None

    def __str__(self) -> str:
        return self.kind


Audience = Group | ToPlayer | ToTeam | ToHost

GROUP = Group()
HOST = ToHost()
# what a rule set tells a player whose action it took (a platform's button shows it itself)
NOTED = N_("Noted. You can change your choice until the phase closes.")


class RefKind(StrEnum):
    """The kinds of `Ref` the core names by itself. A `Ref`'s kind is stored with it (the
    event log, the outbox, the buttons' labels), so each keeps its string, and a `Ref` read
    back holds the plain string (equal to its member). Beside these, a rule set names more
    in its vocabulary (any of its keys: `check`, `window` …), the forms of roles and sides
    are core/engine/forms.py's, and the service's own words core/spoken.py's."""

    PLAYER = "player"  # a player id: his display name
    ROLE = "role"  # a role id: its name
    SIDE = "side"  # a side id: its name
    CAUSE = "cause"  # why a player left
    ACTION = "action"  # an action id: its name
    ROLE_WAS = "role_was"  # a role in running text (see `role_was`)
    DEALT = "dealt"  # a dealt role's card (see `dealt`)
    RULESET = "ruleset"  # a rule set's id: its title


class Ref(NamedTuple):
    """A parameter that names a game object; the renderer turns it into a (translated) word.
    `kind` is a `RefKind` when the core names it, or a rule set's vocabulary key."""

    kind: str
    value: str


# Refs are immutable and named over and over (every message names players and roles), so
# each is made once and shared.
@cache
def player(pid: str) -> Ref:
    return Ref(RefKind.PLAYER, pid)


@cache
def role(role_id: str) -> Ref:
    return Ref(RefKind.ROLE, role_id)


@cache
def side(side_id: str) -> Ref:
    return Ref(RefKind.SIDE, side_id)


@cache
def cause(cause_id: str) -> Ref:
    return Ref(RefKind.CAUSE, cause_id)


@cache
def role_was(role_id: str) -> Ref:
    """A role in running text ("the Researcher", gettext context `ROLE_WAS`): every removal
    and check names one."""
    return Ref(RefKind.ROLE_WAS, role_id)


@cache
def dealt(role_id: str) -> Ref:
    """The card of a dealt role: every player's opening message shows his."""
    return Ref(RefKind.DEALT, role_id)


class Tally(NamedTuple):
    """A name with its votes, one entry of a vote's count: "Ann (2)"."""

    who: Ref
    votes: int


class WithRole(NamedTuple):
    """A player's name with his role: "Ann (Herbalist)"."""

    who: Ref
    role: Ref


class Either(NamedTuple):
    """A list of alternatives, said with the language's "or": "Abduct or Exchange"
    („Entführen oder Austauschen“); a plain tuple is said with its "and"."""

    items: tuple[Param, ...]


# What fills a text's placeholder, told apart by type, never by its shape or its name (a
# parameter named `text` is a plain `str`, never taken for a translated `Text`):
# - `str`: words said as they are (a name the platform gave, the host's announcement, a link);
# - `int`: a number (a count, minutes);
# - `Ref`: a game object named in the reader's words (a player, a role, a side, a duration...);
# - `Text`: a translated phrase inside the sentence ("2 penalty votes", see `counted`);
# - `Tally`, `WithRole`: a name with its votes, a name with its role;
# - a tuple of params: a list, said with the language's "and" ("Ann, Bob und Cid");
# - `Either`: alternatives, said with its "or".
# (Named tuples all, so the log's codec and every reader that walks a list see what they saw
# before these had names: a tuple, encoded as a list.)
Param = str | int | Ref | Text | Tally | WithRole | Either | tuple["Param", ...]


class Purpose(StrEnum):
    """What a message is for, said where it is told, so that nobody downstream has to
    recognise it by its words."""

    PLAIN = "plain"  # told for what it says
    NOTED = "noted"  # acknowledges the reader's own choice (told before the rest)
    ASKING = "asking"  # asks the reader for the choice his keyboard offers (its prompt)


class Message(NamedTuple):
    """One text to tell an audience."""

    audience: Audience
    text: Text
    purpose: Purpose = Purpose.PLAIN
