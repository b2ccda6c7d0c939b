"""`/option NAME VALUE` read as the host means it, in any of the bot's languages, and checked
against the rule set and the sign-up before anything is saved: each refusal names what the
option takes, in the host's language (the values as the bot shows them to him)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.engine import SetupError
from core.engine.messages import Either, Ref, RefKind
from core.engine.ruleset import Ruleset
from core.spoken import SpokenKind

from ..messages import setting_texts as st
from ..ports.replies import Reply
from ..telling.settings_view import shown_value
from ..telling.sign_up_fit import fitting_values, numbers, players_needed
from .typed_values import ON_OFF, folded, read_option_name, read_value


def named_option(ruleset: Ruleset, typed: str) -> tuple[str, str]:
    """The option `/option` names (its id, or its name or a word for it in any of the bot's
    languages) and the value typed after it; an unknown name is refused with the options'
    names as the host reads them."""
    found = read_option_name(ruleset.id, typed)
    if found is None:
        raise Reply(st.UNKNOWN_OPTION, ruleset=Ref(RefKind.RULESET, ruleset.id),
                    name=typed.split()[0] if typed.split() else typed,
                    options=tuple(Ref(SpokenKind.OPTION_NAME, n) for n in ruleset.default_options
                                  if n in ruleset.option_about))
    return found


def read_option(ruleset: Ruleset, name: str, raw: str, players: Sequence[str]) -> Any:
    """The value the host typed for option `name` (one of the rule set's); `players`: the
    names signed up (an option whose value names a player takes one of them, or nothing:
    drawn)."""
    title = Ref(SpokenKind.OPTION_NAME, name)
    default = ruleset.default_options[name]
    choices = ruleset.option_choices.get(name)
    if name in ruleset.player_options:
        if not raw:
            return ""
        named = next((p for p in players if folded(p) == folded(raw)), None)
        if named is None:
            raise Reply(st.OPTION_PLAYER, title=title, name=name, signed=Either(tuple(players)))
        return named
    if choices is not None or isinstance(default, bool):
        values = tuple(choices) if choices is not None else ON_OFF
        found = read_value(raw, values, ruleset.id)
        if found is None:
            raise Reply(st.OPTION_TAKES, title=title,
                        values=Either(tuple(Ref(SpokenKind.OPTION_VALUE, v) for v in values)))
        return found if choices is not None else found == "on"
    if isinstance(default, int):
        if not raw.isdigit():
            raise Reply(st.OPTION_NUMBER, title=title, about=Ref("option", name))
        return int(raw)
    return raw


def check_fits(ruleset: Ruleset, options: Mapping[str, Any], name: str, value: Any,
               signed: int) -> None:
    """Refuse a value with which no game the sign-up may still become can be dealt (the
    sign-up so far, up to the rule set's largest game), naming the values that would fit."""
    wanted = {**options, name: value}
    try:
        ruleset.check_options({name: value})
    except SetupError as err:
        raise Reply.saying(err.text) from None
    if players_needed(ruleset, wanted, signed) is not None:
        return
    default = ruleset.default_options[name]
    choices = ruleset.option_choices.get(name)
    candidates: list[Any] = (list(choices) if choices is not None
                             else [True, False] if isinstance(default, bool)
                             else list(range(ruleset.max_players + 1))
                             if isinstance(default, int) else [])
    fitting = fitting_values(ruleset, options, name, candidates, signed)
    raise Reply(st.OPTION_FITS_NO_GAME, title=Ref(SpokenKind.OPTION_NAME, name),
                value=Ref(SpokenKind.OPTION_VALUE, shown_value(value)),
                least=max(signed, ruleset.min_players), most=ruleset.max_players,
                values=_shown(fitting))


def _shown(values: list[Any]) -> str | tuple[Ref, ...]:
    """The values that fit, as the host reads them: numbers as runs ("0, 2–4")."""
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return numbers(values)
    return tuple(Ref(SpokenKind.OPTION_VALUE, shown_value(v)) for v in values) or "—"
