"""The data a rule set declares: its roles, their actions, the private chats the rules give,
and the error for a setup the rules forbid. Plain values that know no game."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .ids import ActionId, PlayerId, RoleId, SlotId
from .messages import Param, Text


class SetupError(ValueError):
    """A game setup the rules forbid; `text` explains why in a translatable way."""

    def __init__(self, key: str, /, **params: Param) -> None:
        super().__init__(key.format(**params) if params else key)
        self.text = Text(key, params)


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """What one action accepts. `stages` are the phase stages in which it may be submitted
    (members of the rule set's stage enum); actions sharing a `slot` replace each other (last
    submission wins)."""

    id: ActionId
    stages: frozenset[StrEnum]
    targets: int = 1
    self_ok: bool = True
    harmful: bool = False
    slot: SlotId | None = None
    text_max: int = 0
    takes_role: bool = False
    removed_targets: bool = False  # targets must have left the game (an autopsy)

    @property
    def slot_id(self) -> ActionId | SlotId:
        return self.slot or self.id


@dataclass(frozen=True, slots=True)
class TeamChat:
    """A private chat the rules give some players: a team, a pair allowed to talk, the
    spectators of a side. `key` stays the same while the members change, so a platform that
    can create rooms keeps one room per key and invites and removes people to match;
    elsewhere the bot relays such talk through private chats (`whisper_recipients`).
    `title` and `about` are msgids (the room's name and topic)."""

    key: str
    title: str
    about: str
    members: tuple[PlayerId, ...]


@dataclass(frozen=True, slots=True)
class RoleSpec:
    """A role: its id, its side at the start, and the actions it may send."""

    id: RoleId
    side: str
    actions: tuple[ActionSpec, ...] = ()
    special: bool = True
