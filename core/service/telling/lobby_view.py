"""The game at a glance: the sign-up message shows the whole set-up (rule set, host,
players, the role list or the rules' deal for their number, the pace, the options that
differ from the defaults, what is set for this game only), one message edited in place
(its outbox `replace` key) as players come and go and the host changes a setting, rather
than a stream of confirmations (groups have a small message budget). And what a group
keeps for its next games (`/settings`, the lobby's `/status`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.engine.messages import Ref, RefKind, Text
from core.engine.registry import load_ruleset
from core.spoken import SpokenKind
from core.storage.models import Chat, GameRecord, Identity, Seat

from ..messages import outbox, texts
from ..messages.buttons import signup_buttons
from ..messages.payloads import KeyboardPayload, Part, PostPayload, part
from ..ports.howto import HowTo, howto
from ..ports.place_settings import PlaceSettings
from .settings_view import current_options, setting
from .sign_up_fit import misfit_lines


async def show_lobby(row: GameRecord, chat: Chat, timers: tuple[Part, ...] = ()) -> None:
    """Post the sign-up message, or edit it to what the game is now (`timers`: each
    window's timer, as /timer shows them). Its buttons open the private chat, where the bot
    may then write to the player."""
    host = await Identity.get(id=row.host_id)
    names = [seat.identity.name for seat in await Seat.filter(game_id=row.id, active=True)
             .order_by("position").prefetch_related("identity")]
    listed = (part(*texts.SIGNUP_LIST, count=len(names), names=tuple(names)),) \
        if names else ()  # an empty list would print as a bare dot (an anonymous host)
    await outbox.to_group(chat, KeyboardPayload(
        (part(texts.SIGNUP_OPEN, host=host.name, ruleset=Ref(RefKind.RULESET, row.ruleset),
              how=howto(HowTo.JOIN)),
         *listed, *set_up(row, names), *timers), await signup_buttons(row),
        f"signup-{row.id}"), game=row)


def set_up(row: GameRecord, names: list[str]) -> tuple[Part, ...]:
    """The game's set-up, one line each: roles, pace, changed options, what does not fit
    the sign-up (`names`, those signed up), this game's own."""
    players = len(names)
    settings = row.settings or {}
    roles = settings.get("roles")
    lines = [part(*texts.GLANCE_ROLES, count=len(roles),
                  roles=tuple(Ref(RefKind.ROLE, r) for r in roles)) if roles
             else part(*texts.GLANCE_DEAL, count=players),
             part(texts.GLANCE_PACE,
                  pace=Ref(SpokenKind.OPTION_VALUE, settings.get("pace") or "quick"),
                  tz=str(settings.get("tz") or ""))]
    changed = changed_options(row)
    if changed:
        lines.append(part(texts.STATUS_SETTINGS, settings=changed))
    ruleset = load_ruleset(row.ruleset)
    lines.extend(misfit_lines(ruleset, current_options(row), settings.get("options") or {},
                              names))
    once = once_line(row)
    if once is not None:
        lines.append(once)
    return tuple(lines)


def once_line(row: GameRecord) -> Part | None:
    """What is set for this game only, which the group's next game will not start with."""
    once = (row.settings or {}).get("once") or []
    return part(texts.GLANCE_ONCE, settings=tuple(_once_named(name) for name in once)) \
        if once else None


def _once_named(name: str) -> Ref:
    """A setting made for this game only: an option, the pace or the language, or a
    window's timer ("timer:vote")."""
    kind, _, window = name.partition(":")
    if kind == "timer" and window:
        return Ref("window", window)
    return Ref(SpokenKind.OPTION_NAME, name)


def changed_options(row: GameRecord) -> tuple[Text, ...]:
    """The host's options that differ from what the game would have without them (the
    rule set's defaults and its pace's)."""
    ruleset = load_ruleset(row.ruleset)
    settings = row.settings or {}
    otherwise = {**ruleset.default_options,
                 **ruleset.pace_options.get(settings.get("pace") or "", {})}
    return tuple(setting(name, value) for name, value in settings.get("options", {}).items()
                 if otherwise.get(name) != value)


def group_settings_view(place: PlaceSettings, locale: str, pace: str, tz: str,
                        rulesets: Iterable[str]) -> PostPayload:
    """What the group keeps for its next games, for `rulesets` (a game's own alone: the
    reader's words for another rule set's options are that rule set's); `locale`, `pace`
    and `tz` stand where the group keeps none."""
    if place.empty():
        return PostPayload((part(texts.GROUP_SETTINGS_NONE),))
    lines = [part(texts.GROUP_SETTINGS,
                  language=Ref(SpokenKind.OPTION_VALUE, place.locale or locale),
                  pace=Ref(SpokenKind.OPTION_VALUE, place.pace or pace), tz=place.tz or tz)]
    for ruleset in rulesets:
        choices = place.for_ruleset(ruleset)
        if choices.roles:
            lines.append(part(*texts.GROUP_ROLES, count=len(choices.roles),
                              ruleset=Ref(RefKind.RULESET, ruleset),
                              roles=tuple(Ref(RefKind.ROLE, r) for r in choices.roles)))
        if choices.options:
            lines.append(part(texts.GROUP_OPTIONS, ruleset=Ref(RefKind.RULESET, ruleset),
                              settings=_settings(choices.options)))
    return PostPayload(tuple(lines))


def _settings(options: Mapping[str, Any]) -> tuple[Text, ...]:
    return tuple(setting(name, value) for name, value in options.items())
