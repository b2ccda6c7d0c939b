"""Whether the host's options fit the sign-up: a game with them must be dealable for the
players who have signed up, by the rule set's own deal and checks (`deal`, `check_setup`),
so no rule set declares anything extra for it.

An option that fits no game from the sign-up's size up to the rule set's largest is
refused when set, with the values that would fit. One that needs more players than have
signed up so far is taken (more may come), and the sign-up says so until enough have
joined; a player who leaves may bring the warning back. `/startgame` refuses while it
stands, with the numbers (docs/changelings-decisions.md, "Settings that do not fit the
sign-up")."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from core.engine import SetupError
from core.engine.messages import Ref
from core.engine.ruleset import Ruleset
from core.spoken import SpokenKind

from ..messages import setting_texts as st
from ..messages.payloads import Part, part
from .settings_view import shown_value


def fits(ruleset: Ruleset, options: Mapping[str, Any], count: int) -> bool:
    """Whether the rules' deal for `count` players, with these options, may be played."""
    try:
        ruleset.check_setup(ruleset.deal(count, dict(options), random.Random(0)), dict(options))
    except SetupError:
        return False
    return True


def players_needed(ruleset: Ruleset, options: Mapping[str, Any], signed: int) -> int | None:
    """The fewest players, from the sign-up's size (at least the rule set's smallest game) to
    its largest, for whom a game with these options can be dealt; None: for none of them."""
    least = max(signed, ruleset.min_players)
    return next((count for count in range(least, ruleset.max_players + 1)
                 if fits(ruleset, options, count)), None)


def fitting_values(ruleset: Ruleset, options: Mapping[str, Any], name: str, values: list[Any],
                   signed: int) -> list[Any]:
    """Those of `values` for option `name` that fit some game the sign-up may still become."""
    return [value for value in values
            if players_needed(ruleset, {**options, name: value}, signed) is not None]


def numbers(values: list[int]) -> str:
    """Whole numbers as runs ("0, 2–4")."""
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def misfit(ruleset: Ruleset, options: Mapping[str, Any], chosen: Mapping[str, Any],
           signed: int) -> tuple[str, int] | None:
    """The first of the host's `chosen` options that needs more players than `signed`, and
    how many it needs (None: each fits). The options are tried one by one over the
    defaults, so the warning names the option to change."""
    plain = {k: v for k, v in options.items() if k not in chosen}
    least = players_needed(ruleset, plain, 0) or ruleset.min_players
    for name, value in chosen.items():
        needed = players_needed(ruleset, {**plain, name: value}, 0)
        if needed is not None and needed > max(signed, least):
            return name, needed
    return None


def gone(ruleset: Ruleset, chosen: Mapping[str, Any], names: Sequence[str]
         ) -> tuple[str, str] | None:
    """An option naming a player who is not (or no longer) signed up, and his name."""
    return next(((option, chosen[option]) for option in ruleset.player_options
                 if chosen.get(option) and chosen[option] not in names), None)


def misfit_lines(ruleset: Ruleset, options: Mapping[str, Any], chosen: Mapping[str, Any],
                 names: Sequence[str]) -> tuple[Part, ...]:
    """The sign-up's warnings: an option that needs more players than have signed up, one
    that names a player who left."""
    lines = []
    found = misfit(ruleset, options, chosen, len(names))
    if found is not None:
        name, needed = found
        lines.append(part(st.OPTION_NEEDS_PLAYERS, title=Ref(SpokenKind.OPTION_NAME, name),
                          value=Ref(SpokenKind.OPTION_VALUE, shown_value(chosen[name])),
                          needed=needed, count=len(names)))
    left = gone(ruleset, chosen, names)
    if left is not None:
        lines.append(part(st.OPTION_PLAYER_GONE, title=Ref(SpokenKind.OPTION_NAME, left[0]),
                          name=left[1]))
    return tuple(lines)
