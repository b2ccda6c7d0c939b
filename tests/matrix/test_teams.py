"""Team rooms instead of relays (rules: changelings §5 CH-AGREE's team chat, alchemists §8):
the bot creates one private room per team chat and keeps exactly its members in it through a
whole game, against a real Synapse. Deaths take players out of their team room and into a
spectators' room; talk in a team room is not relayed (the members read it there) but counts
as activity; members cannot invite anybody."""

from __future__ import annotations

import random

import pytest
from nio import RoomInviteResponse

from core.service.messages.texts import TEAM_ROOM_CLOSED
from core.storage.models import GameRecord
from tests.play import play_until_over

from .harness import Table, open_table, play_round, sign_up


def room_members(table: Table, room_id: str) -> set[str]:
    """Who the room holds (joined or invited), as the homeserver says, without the bot."""
    bot = table.bot
    events = table.synapse.http("GET", f"/_matrix/client/v3/rooms/{room_id}/members",
                                token=bot["access_token"])["chunk"]
    return {e["state_key"] for e in events
            if e["content"].get("membership") in ("join", "invite")
            and e["state_key"] != bot["user_id"]}


async def check_team_rooms(table: Table, row: GameRecord) -> dict[str, set[str]]:
    """Every team chat the rules give now has a room with exactly its members (as Matrix
    users); a chat that never had members has none. Returns the rooms' members by key."""
    game = await table.runtime.service.games.load(row)
    user_of = {p.name: p.user_id for p in table.players.values()}
    rooms = await table.kept.load("teams", table.bot["user_id"]) or {}
    found = {}
    for chat in game.ruleset.team_chats(game):
        room_id = rooms.get(f"{row.id}/{chat.key}")
        wanted = {user_of[game.state.players[pid].name] for pid in chat.members}
        if room_id is None:
            assert not wanted, f"{chat.key} has members but no room"
            continue
        assert room_members(table, room_id) == wanted, chat.key
        found[chat.key] = wanted
    return found


async def check_rooms_closed(table: Table, row: GameRecord, room_ids: set[str]) -> None:
    """After the game the bot has said goodbye in every team room and left it; the players
    keep the rooms."""
    assert room_ids
    await table.settle()
    kept = await table.kept.load("teams", table.bot["user_id"]) or {}
    assert not [key for key in kept if key.startswith(f"{row.id}/")]
    joined = table.synapse.http("GET", "/_matrix/client/v3/joined_rooms",
                                token=table.bot["access_token"])["joined_rooms"]
    assert not room_ids & set(joined)
    bot = table.bot["user_id"]
    farewells = 0
    for room_id in room_ids:  # as seen by those still in the room at the end, if any
        for player in table.players.values():
            events = [e for e in player.rooms.get(room_id, []) if e.get("sender") == bot]
            if events and events[-1]["type"] == "m.room.member" \
                    and events[-1]["state_key"] == bot:
                assert events[-1]["content"]["membership"] == "leave"
                assert events[-2]["type"] == "m.room.message"
                assert events[-2]["content"]["body"] == TEAM_ROOM_CLOSED
                farewells += 1
    assert farewells


GAMES = [
    ("changelings", 8, ("!option random_lovers false",), {"changelings", "spectators"}),
    ("alchemists", 9, (), {"guard"}),
]


@pytest.mark.parametrize(("ruleset", "players", "settings", "rooms"), GAMES,
                         ids=[g[0] for g in GAMES])
async def test_team_rooms_hold_exactly_their_members_through_a_whole_game(
        synapse, register, clients, tmp_path, ruleset, players, settings, rooms):
    table = await open_table(synapse, register, clients,
                             f"sqlite://{tmp_path / 'mx.sqlite3'}", players, seed=players)
    try:
        await sign_up(table, ruleset, *settings)
        seen: set[str] = set()
        room_ids: set[str] = set()

        async def rooms_are_right(row: GameRecord) -> None:
            if row.status == "running":
                seen.update(await check_team_rooms(table, row))
                room_ids.update((await table.kept.load("teams", table.bot["user_id"])).values())

        row = await play_until_over(table, play_round, random.Random(players + 1),
                                    after_round=rooms_are_right)
        assert row.status == "ended"
        assert rooms <= seen
        if ruleset == "alchemists":
            assert any(key.startswith("spectators-") for key in seen)
        await check_rooms_closed(table, row, room_ids)
    finally:
        await table.stop()


async def test_talk_in_a_team_room_is_not_relayed_but_counts_and_members_cannot_invite(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients,
                             f"sqlite://{tmp_path / 'mx.sqlite3'}", 8, seed=3)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        row = await table.game_row()
        game = await table.runtime.service.games.load(row)
        hive = next(c for c in game.ruleset.team_chats(game) if c.key == "changelings")
        names = [game.state.players[pid].name for pid in hive.members]
        room_id = (await table.kept.load("teams", table.bot["user_id"]))[f"{row.id}/changelings"]
        speaker = table.players[names[0]]
        await table.settle()
        assert room_id in speaker.rooms  # joined on the bot's invite
        before = game.state.players[hive.members[0]].last_active
        table.clock.advance(60)
        await speaker.say(room_id, "Tonight the blue one, agreed?")
        await table.settle()
        game = await table.runtime.service.games.load(await table.game_row())
        assert game.state.players[hive.members[0]].last_active > before  # activity counts
        for name in names[1:]:  # read in the room itself, not relayed to private rooms
            mate = table.players[name]
            assert any(e.get("content", {}).get("body") == "Tonight the blue one, agreed?"
                       for e in mate.rooms.get(room_id, []))
            assert not any("whispers" in e.get("content", {}).get("body", "")
                           for e in mate.from_bot(mate.dm))
        outsider = next(p for p in table.players.values() if p.name not in names)
        invited = await speaker.client.room_invite(room_id, outsider.user_id)
        assert not isinstance(invited, RoomInviteResponse)  # only the bot invites
        assert outsider.user_id not in room_members(table, room_id)
        # a command written there is answered in private, and does not reach the room
        answers = len(speaker.from_bot(speaker.dm))
        await speaker.say(room_id, "!help")
        await table.settle()
        assert len(speaker.from_bot(speaker.dm)) == answers + 1
        assert not [e for e in speaker.from_bot(room_id) if e.get("type") == "m.room.message"]
    finally:
        await table.stop()
