"""The Matrix adapter's behaviour around a game: whose invites the bot accepts, host rights
from power levels, the dead going silent, and distrust of poll answers and edits."""

from __future__ import annotations

import asyncio
import time

from nio import RoomCreateResponse, RoomGetStateEventResponse, RoomPreset, RoomSendResponse

from core.storage.models import LogEntry

from .harness import (
    Player,
    Table,
    choose_privately,
    event_texts,
    is_vote_prompt,
    living,
    open_poll,
    open_table,
    options,
    poll_answers,
    private_prompt,
    sign_up,
)


async def membership(owner: Player, room_id: str, user_id: str) -> str | None:
    response = await owner.client.room_get_state_event(room_id, "m.room.member", user_id)
    if not isinstance(response, RoomGetStateEventResponse):
        return None
    return str(response.content.get("membership"))


async def settled_membership(owner: Player, room_id: str, user_id: str,
                             timeout: float = 15.0) -> str | None:
    """The bot's membership once it has answered the invite (joined or declined)."""
    deadline = time.monotonic() + timeout
    state = None
    while time.monotonic() < deadline:
        state = await membership(owner, room_id, user_id)
        if state in ("join", "leave"):
            return state
        await asyncio.sleep(0.05)
    return state


async def new_room(owner: Player, bot: str, direct: bool = False) -> str:
    created = await owner.client.room_create(
        is_direct=direct, invite=[bot],
        preset=RoomPreset.trusted_private_chat if direct else RoomPreset.private_chat)
    assert isinstance(created, RoomCreateResponse), created
    return str(created.room_id)


def bodies(player: Player, room_id: str) -> list[str]:
    """The texts of the bot's messages in a room, as the player read them."""
    return [str(e["content"]["body"]) for e in player.from_bot(room_id)
            if e.get("type") == "m.room.message" and "body" in e.get("content", {})]


def last_private_text(player: Player) -> str:
    return str(player.from_bot(player.dm)[-1]["content"]["body"])


async def game_state(table: Table):
    row = await table.game_row()
    return (await table.runtime.service.games.load(row)).state


async def test_invites_are_accepted_only_from_allowed_people(synapse, register, clients,
                                                            tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2,
                             host_only=True)
    try:
        bot = table.bot["user_id"]
        zed_user = register("Zed")
        zed = Player("Zed", zed_user["user_id"], await clients(zed_user), bot, table.sent)
        bob = table.players["Bob"]
        strangers_group = await new_room(zed, bot)
        strangers_direct = await new_room(zed, bot, direct=True)
        players_group = await new_room(bob, bot)
        players_direct = await new_room(bob, bot, direct=True)
        hosts_group = await new_room(table.host, bot)

        assert await settled_membership(zed, strangers_group, bot) == "leave"
        # the inviter is told why, with the rejection (issue 32)
        rejected = await zed.client.room_get_state_event(strangers_group, "m.room.member", bot)
        assert isinstance(rejected, RoomGetStateEventResponse)
        reason = str(rejected.content.get("reason", ""))
        assert reason.startswith("I accept invites only from") and "matrix.allow" in reason
        assert "Ich nehme" in reason and "Я принимаю" in reason
        assert await settled_membership(zed, strangers_direct, bot) == "leave"
        assert await settled_membership(bob, players_group, bot) == "leave"  # not allowed
        assert await settled_membership(bob, players_direct, bot) == "join"  # plays with it
        assert await settled_membership(table.host, hosts_group, bot) == "join"  # allowed

        # Bob's own direct room is his private chat with the bot from now on
        await bob.say(players_direct, "!help")
        await table.settle()
        answer = bob.from_bot(players_direct)[-1]["content"]["body"]
        # in no game yet: the welcome, then how night actions are sent in this room
        assert answer.startswith("Hello! I am Nightfall")
        assert "Send me your night actions here" in answer
        [hello] = bodies(table.host, hosts_group)  # a group room is greeted
        assert hello.startswith("Hello, I am Nightfall, your game master.")
        assert "I cannot mute the players who are out of the game" in hello  # level 0
        assert not any(t.startswith("Hello, I am") for t in bodies(bob, players_direct))
    finally:
        await table.stop()


async def test_host_powers_come_from_room_power_levels(synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 8)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        cid, dot, bob = table.players["Cid"], table.players["Dot"], table.players["Bob"]
        await cid.say(table.room, "!pause")
        await table.settle()
        assert last_private_text(cid) == "Only the host can do that."
        assert not (await game_state(table)).paused

        levels = (await table.host.client.room_get_state_event(
            table.room, "m.room.power_levels")).content
        levels["users"][dot.user_id] = 50  # a moderator (may kick): host rights
        await table.host.client.room_put_state(table.room, "m.room.power_levels", levels)
        await dot.say(table.room, "Nightfall: pause")  # by mention
        await table.settle()
        assert (await game_state(table)).paused
        await dot.say(table.room, f"{table.bot['user_id']}: resume")
        await table.settle()
        assert not (await game_state(table)).paused

        # the dead go silent: below events_default until the game is over
        await table.host.say(table.room, "!modkill Bob")
        await table.settle()
        assert "Bob" not in await living(table)
        levels = (await bob.client.room_get_state_event(table.room,
                                                        "m.room.power_levels")).content
        assert levels["users"][bob.user_id] < levels.get("events_default", 0)
        refused = await bob.client.room_send(table.room, "m.room.message",
                                             {"msgtype": "m.text", "body": "boo"})
        assert not isinstance(refused, RoomSendResponse)
        await table.host.say(table.room, "!endgame")
        await table.settle()
        asked = private_prompt(table.host)  # the host confirms in his private room
        assert asked is not None and (1, "End the game") in options(asked)
        await choose_privately(table.host, asked, 1, "End the game", "number")
        await table.settle()
        levels = (await bob.client.room_get_state_event(table.room,
                                                        "m.room.power_levels")).content
        assert bob.user_id not in levels["users"]  # his old (default) level again
        await bob.say(table.room, "I am back")
    finally:
        await table.stop()


async def test_forged_and_stale_poll_answers_and_edits_change_nothing(synapse, register,
                                                                    clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 8)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        poll = open_poll(table)
        assert poll is not None
        answers = {label: aid for aid, label in poll_answers(poll["content"])}
        ann, bob, eve = table.players["Ann"], table.players["Bob"], table.players["Eve"]
        before = await LogEntry.all().count()

        await ann.answer(table.room, poll["event_id"], "not-an-answer")
        signup = next(e for e in table.host.from_bot(table.room) if "options" not in e)
        await ann.answer(table.room, signup["event_id"], answers["Cid"])  # not a poll
        await ann.send(table.room, "m.poll.response", {
            "m.relates_to": {"rel_type": "m.reference", "event_id": poll["event_id"]},
            "m.selections": []})
        zed_user = register("Zed")
        zed = Player("Zed", zed_user["user_id"], await clients(zed_user),
                     table.bot["user_id"], table.sent)
        await table.host.client.room_invite(table.room, zed.user_id)
        await zed.client.join(table.room)
        await zed.answer(table.room, poll["event_id"], answers["Cid"])  # not playing
        await table.settle()
        assert await LogEntry.all().count() == before  # nothing changed

        # a text vote counts; its edit withdraws it and counts for nothing (the forum rule:
        # a vote in an edited message does not count), and Bob is told; a poll answer
        # (unstable) counts
        vote = await bob.say(table.room, "!vote Cid")
        await ann.say(table.room, "!vote Cid")
        await table.settle()
        await bob.send(table.room, "m.room.message", {
            "msgtype": "m.text", "body": "* !vote Dot",
            "m.new_content": {"msgtype": "m.text", "body": "!vote Dot"},
            "m.relates_to": {"rel_type": "m.replace", "event_id": vote}})
        await eve.answer(table.room, poll["event_id"], answers["Dot"], stable=False)
        await table.settle()
        state = await game_state(table)
        pids = await living(table)
        assert state.votes == {pids["Ann"]: pids["Cid"], pids["Eve"]: pids["Dot"]}
        told = [str(e.get("content", {}).get("body", "")) for e in bob.from_bot(bob.dm)]
        assert any(t.startswith("You edited the message with your vote for Cid.")
                   and "!vote" in t for t in told), told
        # the tally is one status message under the one poll, edited in place
        mine = table.host.from_bot(table.room)
        polls = [e for e in mine if e["type"] == "org.matrix.msc3381.poll.start"]
        status = [e for e in mine if e["type"] == "m.room.message"
                  and is_vote_prompt(e["content"].get("body", ""))
                  and "m.new_content" not in e["content"]]
        assert len(polls) == 1 and len(status) == 1
        assert "Cid (1)" in table.group_texts()[-1] and "Dot (1)" in table.group_texts()[-1]

        # the election closes: its poll ends, and a late answer changes nothing
        await table.let_time_pass(400)
        mine = table.host.from_bot(table.room)
        ended = [e for e in mine if e["type"] == "org.matrix.msc3381.poll.end"]
        assert [e["content"]["m.relates_to"]["event_id"] for e in ended] == [poll["event_id"]]
        final = next(e for e in mine if e["type"] == "m.room.message"
                     and "The vote is closed." in "".join(event_texts(e)))
        assert mine.index(ended[0]) < mine.index(final)  # the poll ends, then the final count
        assert "Final count:" in event_texts(final)[-1]
        count = await LogEntry.all().count()
        notices = len(ann.from_bot(ann.dm))
        await ann.answer(table.room, poll["event_id"], answers["Cid"])
        await table.settle()
        assert await LogEntry.all().count() == count
        assert "This button is from an earlier phase" in \
            ann.from_bot(ann.dm)[notices]["content"]["body"]  # told so, in private
    finally:
        await table.stop()
