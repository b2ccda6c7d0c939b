"""The group remembers: a game place's settings (core/service/ports/place_settings.py) are
what its next game starts with, and the host's settings commands keep them for the group
unless he says `--once` (this game only).

A setting made once is named in the game's settings (`once`), so that the sign-up can say
it is not the group's, and the same setting made again without `--once` is the group's
again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from core.engine import SetupError
from core.engine.registry import load_ruleset
from core.i18n import available_locales
from core.storage.models import Chat, GameRecord

from ..ports.place_settings import PlaceSettings, RulesetChoices
from ..rows.place_settings import place_settings

ONCE = "--once"  # a settings command's last word: for this game only


def split_once(rest: str) -> tuple[str, bool]:
    """A command's arguments without `--once`, and whether it was there."""
    words = rest.split()
    if words and words[-1].lower() == ONCE:
        return rest[:rest.lower().rindex(ONCE)].strip(), True
    return rest, False


async def place_of(chat: Chat) -> PlaceSettings:
    return await place_settings().get(chat.id)


async def starting_settings(chat: Chat, ruleset_id: str, pace: str, tz: str
                            ) -> dict[str, Any]:
    """A new game's settings: the place's remembered ones (for this rule set), else the
    bot's defaults. What no longer fits the rule set (a role or an option an update took
    away, a value it now refuses) is left out rather than refuse the game."""
    place = await place_of(chat)
    ruleset = load_ruleset(ruleset_id)
    choices = place.for_ruleset(ruleset_id)
    roles = choices.roles
    if roles is not None and not all(role in ruleset.roles for role in roles):
        roles = None
    options: dict[str, Any] = {}
    for name, value in choices.options.items():
        try:
            ruleset.check_options({**options, name: value})
        except SetupError:
            continue
        options[name] = value
    settings: dict[str, Any] = {"pace": place.pace or pace, "tz": place.tz or tz,
                                "roles": None if roles is None else list(roles),
                                "options": options}
    if choices.timers:
        settings["timers"] = dict(choices.timers)
    return settings


async def starting_locale(chat: Chat) -> None:
    """The place's remembered language, spoken again (after a game set another once)."""
    place = await place_of(chat)
    if place.locale in available_locales() and place.locale != chat.locale:
        chat.locale = place.locale
        await chat.save(update_fields=["locale"])


def marked(row: GameRecord, name: str, once: bool) -> None:
    """Note in the game's settings whether `name` (a setting's name) was set for this game
    only (the caller saves the row)."""
    kept = [n for n in (row.settings or {}).get("once", []) if n != name]
    row.settings = {**row.settings, "once": [*kept, name] if once else kept}


async def remember(chat: Chat, change: Callable[[PlaceSettings], PlaceSettings]) -> None:
    """Keep a change of the place's settings."""
    store = place_settings()
    await store.put(chat.id, change(await store.get(chat.id)))


async def remember_choices(chat: Chat, ruleset: str,
                           change: Callable[[RulesetChoices], RulesetChoices]) -> None:
    """Keep a change of the place's choices for one rule set."""
    await remember(chat, lambda place: place.with_ruleset(
        ruleset, change(place.for_ruleset(ruleset))))


async def remember_locale(chat: Chat, locale: str, once: bool) -> None:
    """The language: the group's from now on, or (once) this game's, the group's own kept
    to be spoken again at the next game."""
    if once:
        await remember(chat, lambda place: place if place.locale else
                       replace(place, locale=chat.locale))
    else:
        await remember(chat, lambda place: replace(place, locale=locale))


async def forget(chat: Chat) -> None:
    """`/settings reset`: the place remembers nothing; its next game takes the defaults."""
    await place_settings().reset(chat.id)
