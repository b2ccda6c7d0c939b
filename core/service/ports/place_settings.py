"""A game place's remembered settings: what a group (or one forum topic of it) keeps for its
next games, as a typed record, and the port through which the service reads and writes it.

The language, the pace and its time zone belong to the place; the role list, the options
and the timers to a rule set (another rule set has other roles, options and windows), so
they are kept per rule set, and a game of one rule set never starts with another's. A
field left None (or empty) was never set here: the game takes the bot's default.

Stored as JSON (`to_json`/`from_json`); a field the record does not know is dropped on
reading, a missing one is None, so that records written by an older or newer bot read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class RulesetChoices:
    """The host's choices for games of one rule set: `roles` the list to deal (None: the
    rules' deal), `options` the rule options set, `timers` the window timers as the game's
    settings keep them (window id to its stored value)."""

    roles: tuple[str, ...] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    timers: Mapping[str, Any] = field(default_factory=dict)

    def empty(self) -> bool:
        return self.roles is None and not self.options and not self.timers

    def to_json(self) -> dict[str, Any]:
        return {"roles": None if self.roles is None else list(self.roles),
                "options": dict(self.options), "timers": dict(self.timers)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> RulesetChoices:
        roles = raw.get("roles")
        return cls(roles=None if roles is None else tuple(str(r) for r in roles),
                   options=dict(raw.get("options") or {}), timers=dict(raw.get("timers") or {}))


@dataclass(frozen=True, slots=True)
class PlaceSettings:
    """Everything a game place remembers (see the module's docstring)."""

    locale: str | None = None
    pace: str | None = None
    tz: str | None = None
    rulesets: Mapping[str, RulesetChoices] = field(default_factory=dict)

    def empty(self) -> bool:
        return self.locale is None and self.pace is None and self.tz is None and all(
            choices.empty() for choices in self.rulesets.values())

    def for_ruleset(self, ruleset: str) -> RulesetChoices:
        return self.rulesets.get(ruleset, RulesetChoices())

    def with_ruleset(self, ruleset: str, choices: RulesetChoices) -> PlaceSettings:
        return replace(self, rulesets={**self.rulesets, ruleset: choices})

    def to_json(self) -> dict[str, Any]:
        return {"locale": self.locale, "pace": self.pace, "tz": self.tz,
                "rulesets": {name: choices.to_json() for name, choices in self.rulesets.items()
                             if not choices.empty()}}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> PlaceSettings:
        return cls(locale=raw.get("locale"), pace=raw.get("pace"), tz=raw.get("tz"),
                   rulesets={name: RulesetChoices.from_json(choices)
                             for name, choices in (raw.get("rulesets") or {}).items()})


class PlaceSettingsStore(Protocol):
    """The remembered settings of each game place, by its chat's id (a forum topic is a
    chat of its own: its settings are its own)."""

    async def get(self, chat_id: int) -> PlaceSettings:
        """The place's settings (an empty record where nothing was kept)."""
        ...

    async def put(self, chat_id: int, settings: PlaceSettings) -> None:
        """Keep the place's settings, replacing what was kept."""
        ...

    async def reset(self, chat_id: int) -> None:
        """Forget everything the place kept."""
        ...
