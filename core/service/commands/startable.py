"""Whether the sign-up can start as it is set up: what `/startgame` checks before it deals,
so that a setting that does not fit the players who came is refused with the numbers and
what to change, rather than the engine's general "one role per player"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.engine.messages import Ref
from core.engine.ruleset import Ruleset
from core.spoken import SpokenKind

from ..messages import setting_texts as st
from ..ports.replies import Reply
from ..telling.settings_view import shown_value
from ..telling.sign_up_fit import gone, misfit


def check_start(ruleset: Ruleset, settings: Mapping[str, Any], names: Sequence[str]
                ) -> dict[str, Any]:
    """The options the game starts with (the pace's defaults, then the host's), once they,
    the role list and a player an option names fit the `names` signed up."""
    chosen: dict[str, Any] = dict(settings.get("options") or {})
    options = {**ruleset.pace_options.get(settings.get("pace") or "", {}), **chosen}
    found = misfit(ruleset, {**ruleset.default_options, **options}, chosen, len(names))
    if found is not None:
        name, needed = found
        raise Reply(st.START_OPTION_NEEDS_PLAYERS, title=Ref(SpokenKind.OPTION_NAME, name),
                    value=Ref(SpokenKind.OPTION_VALUE, shown_value(chosen[name])), needed=needed,
                    count=len(names), name=name)
    roles = settings.get("roles")
    if roles is not None and len(roles) != len(names):
        raise Reply(*st.START_ROLES_COUNT, count=len(roles), players=len(names))
    left = gone(ruleset, options, names)
    if left is not None:
        raise Reply(st.START_PLAYER_GONE, title=Ref(SpokenKind.OPTION_NAME, left[0]), name=left[1],
                    option=left[0])
    return options
