"""The rooms themselves, against a real Synapse: private and team rooms whose creation half
fails (no orphan room stays, a failure that may pass is retried on the same room, a person
nobody can invite is unreachable), invitations nobody accepts (the group is reminded, once), a game
room upgraded mid-game (the game follows to the replacement room), a bot kicked or demoted
(the game pauses, the host is told privately, as on Telegram), the greeting of a room the
bot is invited to (with what each missing power costs), and a bot with `allow` empty (it
accepts no invites)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import quote

import pytest
from nio import ErrorResponse, RoomPreset

from core.service import ChatRef, Post, Reader, TeamRoom, TransientError, Unreachable, UserRef
from core.storage.models import Outbox

from .harness import Player, Table, open_table, sign_up
from .test_behaviour import game_state, membership, settled_membership

STALLED = "Failed to send invite"  # what Synapse says when an invitee's server fails (502)


def joined_rooms(table: Table) -> set[str]:
    return set(table.synapse.http("GET", "/_matrix/client/v3/joined_rooms",
                                  token=table.bot["access_token"])["joined_rooms"])


def private_texts(player: Player) -> list[str]:
    return [str(e.get("content", {}).get("body", "")) for e in player.from_bot(player.dm)]


async def eventually(table: Table, check: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait (the bot's own sync loop and outbox running) until `check` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await table.settle()
        if check():
            return
        await asyncio.sleep(0.2)
    raise AssertionError("never happened")


async def test_a_private_room_is_created_once_and_a_failed_invite_leaves_no_orphan(
        synapse, register, clients, tmp_path):
    """Synapse creates a room, then invites: an invite that fails for a while (the player's
    server answers 502) is tried again on the same room; one that cannot work (a server the
    bot may not reach) leaves and forgets the room, and the person is unreachable; a server
    that does not know the room version gets a room of version 10."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 3)
    try:
        client = table.adapter.client
        assert client is not None
        real_create, real_put = client.room_create, client.room_put_state
        real_get = client.room_get_state_event
        cid = table.players["Cid"]
        stalled: list[str] = []

        async def create(*args: Any, **kwargs: Any) -> Any:  # Synapse's half-failure
            if kwargs.get("invite") and not stalled:
                stalled.append("create")
                await real_create(*args, **{**kwargs, "invite": []})  # the room is made
                return ErrorResponse(STALLED, "M_UNKNOWN")
            return await real_create(*args, **kwargs)

        async def put(room_id: str, kind: str, body: dict[str, Any], state_key: str = "",
                      ) -> Any:
            if kind == "m.room.member" and body.get("membership") == "invite" and not stalled:
                stalled.append("invite")
                return ErrorResponse(STALLED, "M_UNKNOWN")
            version = (await real_get(room_id, "m.room.create")).content["room_version"]
            if state_key == cid.user_id and version != "10":  # Cid's server is older
                return ErrorResponse("Room version not supported", "M_UNSUPPORTED_ROOM_VERSION")
            return await real_put(room_id, kind, body, state_key=state_key)

        client.room_create, client.room_put_state = create, put  # type: ignore[method-assign]
        before = joined_rooms(table)
        bob = table.players["Bob"]
        await table.host.say(table.room, "!newgame changelings")
        await table.settle()
        await bob.say(table.room, "!join")
        await eventually(table, lambda: any(t.startswith("You are in!")
                                            for t in private_texts(bob)))
        assert stalled  # the first invite failed
        assert joined_rooms(table) - before == {bob.dm}  # one room: no orphan beside it
        assert not any("I cannot write to you privately" in t for t in table.group_texts())

        before = joined_rooms(table)
        await cid.say(table.room, "!join")
        await eventually(table, lambda: any(t.startswith("You are in!")
                                            for t in private_texts(cid)))
        assert joined_rooms(table) - before == {cid.dm}
        assert (await real_get(cid.dm, "m.room.create")).content["room_version"] == "10"

        # a person on a server the bot may not reach: no room stays, he is unreachable
        before = joined_rooms(table)
        with pytest.raises(Unreachable):
            zed = Reader(UserRef("@zed:elsewhere.example"), "Zed")
            await table.adapter.send_post(Post(outbox_id=10**6, to=zed, text="Your role: …"))
        assert joined_rooms(table) == before
    finally:
        await table.stop()


async def test_a_player_who_never_accepts_his_private_room_is_reminded_in_the_group_once(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 3,
                             invite_wait=1.0)
    try:
        bob = table.players["Bob"]
        bob.accepts = False  # his client shows the invitation; he never opens it
        await table.host.say(table.room, "!newgame changelings")
        await table.settle()
        await bob.say(table.room, "!join")
        waiting = "Bob, your private room with me is waiting: please accept my invitation."

        def reminded() -> int:
            return sum(t.startswith(waiting) for t in table.group_texts())

        await eventually(table, lambda: reminded() > 0)
        await asyncio.sleep(2.5)
        await table.settle()
        assert reminded() == 1
        assert await Outbox.filter(status="sent", private=True).exists()  # it waits there
    finally:
        await table.stop()


async def test_an_upgraded_game_room_takes_its_game_to_the_replacement_room(
        synapse, register, clients, tmp_path):
    """The host upgrades the room mid-sign-up (as Element's "upgrade room" does, inviting
    the members): the bot joins the replacement, the game moves there, and the commands
    written there reach it."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 3)
    try:
        ann, bob, cid = table.host, table.players["Bob"], table.players["Cid"]
        await ann.say(table.room, "!newgame changelings")
        await bob.say(table.room, "!join")
        await table.settle()
        old = quote(table.room, safe="")
        upgraded = synapse.http("POST", f"/_matrix/client/v3/rooms/{old}/upgrade",
                                {"new_version": "12"}, token=ann.client.access_token)
        new = upgraded["replacement_room"]
        for user in (table.bot["user_id"], bob.user_id, cid.user_id):
            await ann.client.room_invite(new, user)
        for player in (bob, cid):
            await player.client.join(new)
        assert await settled_membership(ann, new, table.bot["user_id"]) == "join"
        await table.settle()

        def signups() -> list[str]:
            return [str(e["content"].get("body", "")) for e in ann.rooms.get(new, [])
                    if e.get("sender") == table.bot["user_id"]]

        await eventually(table, lambda: any("Join" in t for t in signups()))  # posted anew
        await cid.say(new, "!join")
        await eventually(table, lambda: any("Signed up so far: Ann, Bob, and Cid (3 players)." in t
                                            for t in signups()))

        await table.stop()  # a restart reads the tombstone again: the game stays moved
        await table.start()
        await table.settle()
        row = await table.game_row()
        assert row is not None and (await row.chat).ref == new
    finally:
        await table.stop()


def greetings(player: Player, room_id: str) -> list[str]:
    return [str(e["content"]["body"]) for e in player.from_bot(room_id)
            if str(e.get("content", {}).get("body", "")).startswith(("Hello, I am", "Hallo"))]


async def test_a_bot_without_power_or_kicked_pauses_the_game_and_tells_the_host(
        synapse, register, clients, tmp_path):
    """Power level 50 lets the bot write but not mute (that changes m.room.power_levels,
    100 by default): its greeting says what that costs and how to fix it, and the host is
    told again when a player is out. Demoted below what sending needs, or kicked, the bot
    pauses the game and tells the host privately; back, it says so, and does not greet the
    room again while its game runs. In a room where it has full power it greets in one line,
    and invited again where no game runs, it greets again, in the room's language."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 8,
                             bot_level=50)
    try:
        ann, bot = table.host, table.bot["user_id"]
        [hello] = greetings(ann, table.room)
        assert hello.startswith("Hello, I am Nightfall, your game master. Write !newgame")
        assert "I cannot mute the players who are out of the game" in hello
        assert hello.endswith("in Element: Room settings → Roles & Permissions.")
        await sign_up(table, "changelings", "!option random_lovers false")
        await ann.say(table.room, "!modkill Bob")
        await eventually(table, lambda: any(t.startswith("I cannot mute the players")
                                            for t in private_texts(ann)))

        levels = (await ann.client.room_get_state_event(table.room,
                                                        "m.room.power_levels")).content
        await ann.client.room_put_state(table.room, "m.room.power_levels",
                                        {**levels, "events_default": 60})
        await eventually(table, lambda: any(t.startswith("I may no longer write in")
                                            for t in private_texts(ann)))
        assert (await game_state(table)).paused
        await ann.client.room_put_state(table.room, "m.room.power_levels", levels)
        await eventually(table, lambda: any(t.startswith("I can write in")
                                            for t in private_texts(ann)))
        await ann.say(table.room, "!resume")
        await table.settle()
        assert not (await game_state(table)).paused

        await ann.client.room_kick(table.room, bot)
        await eventually(table, lambda: any(t.startswith("I was removed from")
                                            for t in private_texts(ann)))
        assert (await game_state(table)).paused
        await ann.client.room_invite(table.room, bot)
        assert await settled_membership(ann, table.room, bot) == "join"
        await eventually(table, lambda: sum(t.startswith("I can write in")
                                            for t in private_texts(ann)) == 2)
        assert len(greetings(ann, table.room)) == 1  # a game runs there: no second hello

        created = await ann.client.room_create(preset=RoomPreset.private_chat, invite=[bot],
                                               power_level_override={"users": {bot: 100}})
        full = created.room_id
        await eventually(table, lambda: len(greetings(ann, full)) == 1)
        assert greetings(ann, full)[0].endswith("I have every right I need here.")
        await ann.say(full, "!language de")
        await table.settle()
        await ann.client.room_kick(full, bot)
        assert await settled_membership(ann, full, bot) == "leave"
        await ann.client.room_invite(full, bot)
        await eventually(table, lambda: len(greetings(ann, full)) == 2)
        assert greetings(ann, full)[1].endswith("Ich habe hier alle Rechte, die ich brauche.")
    finally:
        await table.stop()


async def test_with_allow_empty_the_bot_accepts_no_invites(synapse, register, clients,
                                                          tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2,
                             allow=())
    try:
        bot = table.bot["user_id"]
        assert await settled_membership(table.host, table.room, bot) == "leave"
        created = await table.host.client.room_create(preset=RoomPreset.private_chat,
                                                      invite=[bot])
        assert await settled_membership(table.host, created.room_id, bot) == "leave"
        assert await membership(table.host, table.room, bot) == "leave"
    finally:
        await table.stop()


async def test_a_team_room_whose_invite_fails_is_completed_in_the_same_room(
        synapse, register, clients, tmp_path):
    """A team room is created without invites and its members invited one by one: the one
    invite that fails for a while fails the order after the others, and the retry invites
    him into the same room."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 3)
    try:
        client = table.adapter.client
        assert client is not None
        real_create, real_invite = client.room_create, client.room_invite
        real_get = client.room_get_state_event
        cid = table.players["Cid"]
        stalled: list[str] = []

        async def create(*args: Any, **kwargs: Any) -> Any:  # Synapse's half-failure
            if cid.user_id in (kwargs.get("invite") or ()) and not stalled:
                stalled.append("create")
                await real_create(*args, **{**kwargs, "invite": []})
                return ErrorResponse(STALLED, "M_UNKNOWN")
            return await real_create(*args, **kwargs)

        async def invite(room_id: str, user_id: str) -> Any:
            if user_id == cid.user_id and not stalled:
                stalled.append("invite")
                return ErrorResponse(STALLED, "M_UNKNOWN")
            return await real_invite(room_id, user_id)

        client.room_create, client.room_invite = create, invite  # type: ignore[method-assign]
        before = joined_rooms(table)
        order = TeamRoom(outbox_id=10**6, chat=ChatRef(table.room), key="1/team", title="Team",
                         about="Talk here.",
                         members=(UserRef(table.players["Bob"].user_id), UserRef(cid.user_id)))
        with pytest.raises(TransientError):
            await table.adapter.team(order)
        await table.adapter.team(replace(order, outbox_id=10**6 + 1))  # the retry
        made = joined_rooms(table) - before
        assert stalled and len(made) == 1  # one room, with both invited
        room = next(iter(made))
        for player in (cid, table.players["Bob"]):
            state = await real_get(room, "m.room.member", player.user_id)
            assert state.content["membership"] == "invite", player.name
    finally:
        await table.stop()
