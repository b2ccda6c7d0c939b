"""What a button does when it is pressed: one frozen class per kind, stored with the button
(`Button.command`) as JSON under a `type`, by the one codec here.

The JSON is the form buttons were always stored in, key for key, so a button offered by an
earlier version (still under a message in a chat) resolves as it did. Whoever handles a
press matches on the classes, and the type checker sees every kind handled."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, assert_never

from core.engine.ids import ActionId, PlayerId, RoleId


@dataclass(frozen=True, slots=True)
class VoteFor:
    """A ballot's button: a vote for a player, or (None) a vote for nobody."""

    target: PlayerId | None


@dataclass(frozen=True, slots=True)
class MarkEarly:
    """The ballot's "end the day early" button."""


@dataclass(frozen=True, slots=True)
class ActOn:
    """A private keyboard's button: the action on its targets (none: a pass or an action
    without a target); `role`, the role an action names (a guess)."""

    action: ActionId
    targets: tuple[PlayerId, ...]
    role: RoleId | None = None


@dataclass(frozen=True, slots=True)
class PickFirst:
    """The first target of an action on two: the keyboard for the second is offered."""

    action: ActionId
    first: PlayerId


@dataclass(frozen=True, slots=True)
class Join:
    """The sign-up's join button."""


@dataclass(frozen=True, slots=True)
class Leave:
    """The sign-up's leave button."""


#: the token of a deep link that only opens the private chat: pressed there (Telegram's
#: /start hello), what waited is sent and the person is helped; it needs no stored `Hello`
#: button, so it works outside any game too
HELLO = "hello"


@dataclass(frozen=True, slots=True)
class Hello:
    """"Open the private chat": pressed from the private chat, it sends what waited there."""


ConfirmStep = Literal["flee", "endgame", "keep"]


@dataclass(frozen=True, slots=True)
class Confirm:
    """A step that cannot be undone, confirmed (`flee`, `endgame`) or not (`keep`) by the
    one asked (`identity`); `replace`, the question's message, edited into its answer."""

    step: ConfirmStep
    identity: int
    replace: str


#: a page of the host's settings menu (core/service/commands/settings_menu.py)
MenuPage = Literal["main", "ruleset", "language", "pace", "zone", "roles", "options", "option",
                   "timers", "timer", "closed"]
#: a change the settings menu makes, each through the lobby's own command
MenuChange = Literal["ruleset", "language", "pace", "zone", "add", "remove", "default",
                     "option", "timer", "scope"]
MENU_PAGES: tuple[MenuPage, ...] = ("main", "ruleset", "language", "pace", "zone", "roles",
                                    "options", "option", "timers", "timer", "closed")
MENU_CHANGES: tuple[MenuChange, ...] = ("ruleset", "language", "pace", "zone", "add", "remove",
                                        "default", "option", "timer", "scope")


@dataclass(frozen=True, slots=True)
class MenuShow:
    """A settings menu's button that turns to another page (`option`: the option a page of
    values is for); `identity`, the one the menu was opened for; `replace`, the menu's
    message, edited into the page."""

    page: MenuPage
    identity: int
    replace: str
    option: str = ""


@dataclass(frozen=True, slots=True)
class MenuSet:
    """A settings menu's button that changes a setting to `value` (`option`: which option)."""

    change: MenuChange
    value: str
    identity: int
    replace: str
    option: str = ""


ButtonCommand = (VoteFor | MarkEarly | ActOn | PickFirst | Join | Leave | Hello | Confirm
                 | MenuShow | MenuSet)
#: the buttons of a window (a ballot's, a private keyboard's): pressed only while it is open
InWindow = VoteFor | MarkEarly | ActOn | PickFirst

CONFIRM_STEPS: tuple[ConfirmStep, ...] = ("flee", "endgame", "keep")


def to_json(command: ButtonCommand) -> dict[str, Any]:
    match command:
        case VoteFor(target):
            return {"type": "vote", "target": target}
        case MarkEarly():
            return {"type": "early"}
        case ActOn(action, targets, role):
            data: dict[str, Any] = {"type": "act", "action": action, "targets": list(targets)}
            return {**data, "role": role} if role is not None else data
        case PickFirst(action, first):
            return {"type": "pick", "action": action, "targets": [first]}
        case Join():
            return {"type": "join"}
        case Leave():
            return {"type": "leave"}
        case Hello():
            return {"type": "hello"}
        case Confirm(step, identity, replace):
            return {"type": step, "identity": identity, "replace": replace}
        case MenuShow(page, identity, replace, option):
            return {"type": "menu", "page": page, "identity": identity, "replace": replace,
                    "option": option}
        case MenuSet(change, value, identity, replace, option):
            return {"type": "menu-set", "change": change, "value": value,
                    "identity": identity, "replace": replace, "option": option}
        case _:
            assert_never(command)


def from_json(data: Mapping[str, Any]) -> ButtonCommand:
    kind = data["type"]
    if kind == "vote":
        target = data["target"]
        return VoteFor(None if target is None else PlayerId(target))
    if kind == "early":
        return MarkEarly()
    if kind == "act":
        role = data.get("role")
        return ActOn(ActionId(str(data["action"])), tuple(PlayerId(t) for t in data["targets"]),
                     None if role is None else RoleId(role))
    if kind == "pick":
        return PickFirst(ActionId(str(data["action"])), PlayerId(data["targets"][0]))
    if kind == "join":
        return Join()
    if kind == "leave":
        return Leave()
    if kind == "hello":
        return Hello()
    for step in CONFIRM_STEPS:
        if kind == step:
            return Confirm(step, int(data["identity"]), str(data["replace"]))
    if kind == "menu":
        page = next(p for p in MENU_PAGES if p == data["page"])
        return MenuShow(page, int(data["identity"]), str(data["replace"]),
                        str(data.get("option", "")))
    if kind == "menu-set":
        change = next(c for c in MENU_CHANGES if c == data["change"])
        return MenuSet(change, str(data["value"]), int(data["identity"]),
                       str(data["replace"]), str(data.get("option", "")))
    raise ValueError(f"no such button command: {kind!r}")
