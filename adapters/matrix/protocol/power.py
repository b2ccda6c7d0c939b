"""Power levels: who may host (kick), what the bot itself may do in a game room, and what
muting needs (the muting itself is client/muting.py).

Muting sets the player's power level below what sending needs, which is a change of the
room's `m.room.power_levels` state: that needs the level the room gives that event type
(100 in the power levels Synapse's presets create) and a level above the player's. A bot
without it cannot mute: the order waits (`NotAllowed`) and the host is told, as on Telegram.
A bot kicked from the room, or below the level sending needs, cannot play there at all: the
game pauses and the host is told (see client/standing.py).

From room version 12 on (Synapse's default) the room's creators — the sender of
`m.room.create` and its `additional_creators` — outrank every power level, and the power
levels may not name them: their level is unlimited (`CREATOR_POWER` here). They may host;
nobody can mute them, so muting one raises `Untouchable` rather than waiting for a power
that could never come (client/muting.py). A bot that is itself a creator may do anything.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from core.service import Lack

CREATOR_POWER = 1 << 62  # room version 12: creators outrank every power level


def as_int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def creators(create_event: dict[str, Any]) -> set[str]:
    """Who outranks every power level: the creators, in room versions that say so (12 and
    later); none in older rooms, where the creator's level is in the power levels."""
    body = create_event.get("content") or {}
    version = str(body.get("room_version", "1"))
    if version in {str(v) for v in range(1, 12)}:
        return set()
    found = {str(create_event.get("sender", ""))} - {""}
    extra = body.get("additional_creators")
    if isinstance(extra, list):
        found |= {u for u in extra if isinstance(u, str)}
    return found


def level_of(levels: dict[str, Any], user: str) -> int:
    users = levels.get("users") or {}
    return as_int(users.get(user), as_int(levels.get("users_default"), 0))


def needed_for(levels: dict[str, Any], kind: str, state: bool) -> int:
    """The level an event type needs (its own entry, else the state or message default)."""
    default = as_int(levels.get("state_default"), 50) if state else \
        as_int(levels.get("events_default"), 0)
    return as_int((levels.get("events") or {}).get(kind), default)


class Standing(NamedTuple):
    """What the bot may do in a room: write there, and mute (change power levels)."""

    can_write: bool
    can_mute: bool


def standing(levels: dict[str, Any], mine: int) -> Standing:
    return Standing(mine >= needed_for(levels, "m.room.message", state=False),
                    mine >= needed_for(levels, "m.room.power_levels", state=True))


def lacking(levels: dict[str, Any], mine: int) -> tuple[Lack, ...]:
    """The rights the bot misses in a room it has just joined, for its greeting. Muting
    alone is checked: it needs the power to change the power levels and a level above a
    player's (`users_default`; the server refuses to lower an equal). The bot never
    redacts, kicks or bans in a game room (it edits its messages in place), so no level for
    those is asked for; writing there is `standing`'s (a bot that cannot write cannot
    greet); a creator, whom nobody can mute, is told of when it matters (client/muting.py)."""
    above_players = mine > as_int(levels.get("users_default"), 0)
    return () if standing(levels, mine).can_mute and above_players else (Lack.MUTE,)
