"""A new game's options and roles, checked before any state exists: a setup the rule set
cannot seat raises `SetupError` and no game is made."""

from __future__ import annotations

import random
from typing import Any

from .ids import RoleId
from .outcome import GameSetup
from .rules import Rules
from .specs import SetupError


def options_and_roles(ruleset: Rules[Any], setup: GameSetup,
                      rng: random.Random) -> tuple[dict[str, Any], list[RoleId]]:
    """The game's options (the rule set's defaults, then the host's) and its roles, one per
    seat (the host's list, or the rule set's deal drawn from `rng`)."""
    options = dict(ruleset.default_options)
    given = dict(setup.options)
    ruleset.check_options(given)
    options.update(given)
    count = len(setup.players)
    if not ruleset.min_players <= count <= ruleset.max_players:
        raise SetupError("This game needs {low} to {high} players.",
                         low=ruleset.min_players, high=ruleset.max_players)
    if len({pid for pid, _ in setup.players}) != count:
        raise SetupError("Every player may join only once.")
    roles = list(setup.roles) if setup.roles is not None else ruleset.deal(count, options, rng)
    if len(roles) != count:
        raise SetupError("Give exactly one role per player.")
    for role_id in roles:
        if role_id not in ruleset.roles:
            raise SetupError("Unknown role: {role}.", role=role_id)
    ruleset.check_setup(roles, options)
    return options, roles
