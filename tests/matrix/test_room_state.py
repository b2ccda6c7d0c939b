"""What the bot knows of a room, read from events in the shape Synapse serves them (the JSON
in tests/matrix/events/), with no homeserver: the room state keeps members, power levels,
creators, encryption and the room's name, and returns what changed instead of calling the
parts that care; the directory tells the bot's own rooms from game rooms and names people."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adapters.matrix.protocol.directory import Directory
from adapters.matrix.protocol.power import CREATOR_POWER, lacking, standing
from adapters.matrix.protocol.room_state import (
    MembershipChanged,
    PowerChanged,
    RoomState,
    Tombstoned,
    tombstone,
)
from core.service import Lack

EVENTS = Path(__file__).parent / "events"
ROOM = "!game:example.org"
BOT = "@nightfall:example.org"


def event(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((EVENTS / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def read(state: RoomState, *names: str, room: str = ROOM) -> list[object]:
    """The changes of reading these events into the room, in order."""
    return [change for name in names for change in state.apply(room, event(name))]


def test_a_member_joining_is_known_by_name_and_said_to_have_changed() -> None:
    state = RoomState()
    assert read(state, "member_join") == [MembershipChanged(ROOM, "@dot:example.org", "join")]
    assert state.membership(ROOM, "@dot:example.org") == "join"
    assert state.members_of(ROOM) == ["@dot:example.org"]
    assert Directory(state).name(ROOM, "@dot:example.org") == "Dot"


def test_a_member_event_without_content_is_a_leave() -> None:
    state = RoomState()
    assert read(state, "member_leave_no_content") == [
        MembershipChanged(ROOM, "@eve:example.org", "leave")]
    assert state.membership(ROOM, "@eve:example.org") == "leave"


def test_the_bot_invited_is_a_change_of_its_own_membership() -> None:
    state = RoomState()
    assert read(state, "member_invite_bot") == [MembershipChanged(ROOM, BOT, "invite")]
    assert state.membership(ROOM, BOT) == "invite"


def test_power_levels_give_host_rights_and_the_bots_standing() -> None:
    state = RoomState()
    assert read(state, "create_v10", "power_levels") == [PowerChanged(ROOM)]
    assert state.knows_levels(ROOM)
    assert state.is_admin(ROOM, "@ann:example.org")
    assert state.is_admin(ROOM, "@cid:example.org")  # kick needs 50
    assert not state.is_admin(ROOM, "@dot:example.org")  # users_default 0
    mine = standing(state.levels(ROOM), state.power_of(ROOM, BOT))
    assert mine.can_write and not mine.can_mute  # changing power levels needs 100


def test_the_greeting_names_muting_as_missing_unless_the_bot_outranks_the_players() -> None:
    levels = {"users_default": 0, "events": {"m.room.power_levels": 100}}
    assert lacking(levels, 100) == ()
    assert lacking(levels, 50) == (Lack.MUTE,)  # may not change the power levels
    assert lacking({**levels, "users_default": 100}, 100) == (Lack.MUTE,)  # not above them
    assert lacking({}, CREATOR_POWER) == ()  # a bot that created the room may do anything


def test_levels_are_only_known_with_the_creators() -> None:
    state = RoomState()
    read(state, "power_levels")
    assert not state.knows_levels(ROOM)  # who created the room is still to be read
    read(state, "create_v10")
    assert state.knows_levels(ROOM)


def test_creators_outrank_everyone_from_room_version_12_on() -> None:
    state = RoomState()
    read(state, "create_v12", "power_levels")
    assert state.power_of(ROOM, "@ann:example.org") == CREATOR_POWER
    assert state.power_of(ROOM, "@bob:example.org") == CREATOR_POWER  # an additional creator
    assert state.is_admin(ROOM, "@bob:example.org")
    older = RoomState()
    read(older, "create_v10", "power_levels")
    assert older.power_of(ROOM, "@ann:example.org") == 100  # the power levels say it
    assert not older.is_admin(ROOM, "@bob:example.org")


def test_an_upgrade_names_the_replacement_room() -> None:
    state = RoomState()
    assert read(state, "tombstone") == [Tombstoned(ROOM, "!new:example.org")]
    assert tombstone(ROOM, event("tombstone")) == Tombstoned(ROOM, "!new:example.org")
    assert tombstone("!new:example.org", event("tombstone")) is None  # names itself
    assert tombstone(ROOM, event("message")) is None


def test_encryption_is_remembered() -> None:
    state = RoomState()
    assert read(state, "encryption") == []
    assert state.is_encrypted(ROOM)
    assert not state.is_encrypted("!other:example.org")


def test_a_message_changes_nothing() -> None:
    state = RoomState()
    assert read(state, "message") == []
    assert state.members_of(ROOM) == [] and not state.knows_levels(ROOM)


def test_a_forgotten_room_is_unknown_again() -> None:
    state = RoomState()
    read(state, "create_v12", "power_levels", "member_join", "encryption")
    state.forget(ROOM)
    assert state.membership(ROOM, "@dot:example.org") is None
    assert not state.knows_levels(ROOM) and not state.is_encrypted(ROOM)
    assert state.levels(ROOM) == {}


@pytest.mark.parametrize("membership", ["join", "invite"])
def test_the_directory_tells_private_rooms_from_game_rooms(membership: str) -> None:
    state = RoomState()
    directory = Directory(state)
    private = "!dm:example.org"
    read(state, "member_join")
    state.note_membership(private, "@dot:example.org", membership)
    directory.add_private("@dot:example.org", private)
    assert directory.is_group(ROOM) and not directory.is_group(private)
    assert directory.newest("@dot:example.org") == private
    assert directory.shares_a_room("@dot:example.org")  # joined the game room
    assert directory.name(private, "@dot:example.org") == "Dot"  # as the game room names him
    directory.forget_private(private)
    assert directory.is_group(private) and directory.newest("@dot:example.org") is None


def test_who_is_only_in_a_private_room_shares_no_game_room() -> None:
    state = RoomState()
    directory = Directory(state)
    read(state, "member_join", room="!dm:example.org")
    directory.add_private("@dot:example.org", "!dm:example.org")
    assert not directory.shares_a_room("@dot:example.org")
    assert directory.name("!dm:example.org", "@dot:example.org") == "Dot"


def test_a_room_is_known_by_its_name_on_one_line_until_the_name_is_removed() -> None:
    """The host is told about his game's group by the room's name (`m.room.name`)."""
    state = RoomState()
    assert state.title(ROOM) is None
    assert read(state, "room_name") == []
    assert state.title(ROOM) == "Game night at Ann's"
    state.apply(ROOM, {**event("room_name"), "content": {}})
    assert state.title(ROOM) is None


def test_the_host_is_asked_for_what_the_greeting_checks_and_no_more() -> None:
    """The welcome's setup line asks for the power to change the power levels, above the
    players' (what `lacking` checks), and not for redacting: the bot redacts nobody's events,
    so a level that may change the power levels but not redact lacks nothing."""
    from adapters.matrix.howto import HOWTO
    from core.service import HowTo

    setup = HOWTO[HowTo.HOST_SETUP]
    assert "redact" not in setup and "power levels" in setup and "above the players" in setup
    assert "redact" not in HOWTO[HowTo.DELETE_RIGHTS]
    levels = {"users_default": 0, "events": {"m.room.power_levels": 100}, "redact": 101}
    assert lacking(levels, 100) == ()
