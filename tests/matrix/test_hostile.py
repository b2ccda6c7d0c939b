"""Hostile input through the real Matrix stack (hypothesis), against a real Synapse: forged,
replayed, stale and cross-room poll answers, answers to events that are not polls,
reactions with random keys and on stale keyboards, strangers (in the game room, with a
private room of their own), huge and control-character texts, names that only look like
players' names, commands in the wrong room, a room with no game, a room the bot declined,
and malformed event contents. None of it crashes anything, changes the game, or goes
unanswered: every command gets an answer in the sender's private room, and every refused
press of a real button (an answer to an ended poll included) a notice there. What the
adapter drops as not meant for it (unknown answer ids, events that are not polls or
keyboards, other rooms' events) stays silent, as a poll shows its own answer.

One table serves all examples (building one costs more than the whole run): since nothing
may change the game, each example starts from the same game, day 2's vote, with the ballot
of the first day's election ended and the first night's private keyboards stale."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from nio import RoomSendResponse

from adapters.matrix.protocol.incoming import KEYCAPS, keycap_number
from adapters.matrix.protocol.polls import answers as poll_answers
from adapters.matrix.protocol.polls import response as poll_response
from core.storage.models import LogEntry, Outbox
from tests.play import ruleset_longest_window

from .harness import (
    Player,
    Table,
    living,
    open_poll,
    open_table,
    options,
    private_prompt,
    sign_up,
    signup_message,
)
from .test_behaviour import new_room, settled_membership

CONTROL = "".join(chr(c) for c in range(1, 32) if chr(c) not in "\n\t") + \
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202d\u202e\u2066\u2067\u2069\ufeff"
LOOKALIKES = ("Аnn", "B\u200bob", "Сid", "D0t", "Eve\u0301", "Fаy", "\u202eboB", "Bоb",
              "Hal\u2060", "Gus\ufeff")  # Cyrillic А/С/о, zero-width, RTL override, zero

texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",),
                                       exclude_characters="\x00")
                | st.sampled_from(CONTROL), min_size=1, max_size=300).filter(str.strip)
huge = st.integers(min_value=1000, max_value=6000).map(lambda n: ("ж\u0007\u202e" * n)[:n])
forged = st.binary(min_size=1, max_size=48).map(lambda b: b.hex()[:64]) | st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", min_size=1,
    max_size=64) | texts
keys = (texts | st.sampled_from(["👍", "🔟🔟", "0\ufe0f\u20e3", "#\ufe0f\u20e3", "1", "１"])) \
    .filter(lambda k: keycap_number(k) is None)

ACTIONS = st.one_of(
    # strangers: commands in the game room, anything in their private room, poll answers
    st.tuples(st.just("stranger-group"), st.sampled_from(
        ["!vote Ann", "!startgame", "!pause", "!modkill Bob", "!unvote", "!early", "!join",
         "!endgame", "Nightfall: vote Cid"]) | texts.map(lambda t: f"!vote {t}")),
    st.tuples(st.just("stranger-private"), texts | huge),
    st.tuples(st.just("stranger-chatter"), texts | huge),
    st.tuples(st.just("forged-encrypted"), forged),
    st.tuples(st.just("stranger-answer"), st.integers(min_value=0, max_value=8)),
    st.tuples(st.just("stranger-join"), st.just("")),
    st.tuples(st.just("rename"), st.sampled_from((*LOOKALIKES, "Bob", "Ann"))
              | texts.map(lambda t: t[:60])),
    # players: forged, non-poll, stale, replayed and cross-room answers; stale reactions
    st.tuples(st.just("forged-answer"), forged),
    st.tuples(st.just("not-a-poll"), st.sampled_from(["signup", "news", "prompt", "made-up"])),
    st.tuples(st.just("stale-answer"), st.integers(min_value=0, max_value=8)),
    st.tuples(st.just("replayed-answer"), st.integers(min_value=0, max_value=8)),
    st.tuples(st.just("cross-room-answer"), st.integers(min_value=0, max_value=8)),
    st.tuples(st.just("token-in-private"), st.integers(min_value=0, max_value=8)),
    st.tuples(st.just("stale-join"), st.sampled_from(["Cid", "Eve", "Gus"])),
    st.tuples(st.just("stale-prompt"), st.tuples(st.sampled_from(["Ann", "Cid", "Eve", "Hal"]),
                                                 st.integers(min_value=1, max_value=10))),
    st.tuples(st.just("random-key"), st.tuples(st.sampled_from(["poll", "signup", "prompt"]),
                                               keys)),
    st.tuples(st.just("cross-room-key"), st.integers(min_value=1, max_value=8)),
    # commands in the wrong room, names that only look like players', rooms without a game
    st.tuples(st.just("wrong-room"), st.sampled_from(
        ["!startgame", "!newgame", "!vote Bob", "!setroles pony", "!unvote"])),
    # a host's powers written privately by a player who is not the host (the host himself
    # may use them there: a playing host out of the game is muted in the group)
    st.tuples(st.just("host-power-in-private"), st.sampled_from(
        ["!pause", "!modkill Bob", "!endgame", "!extend 5", "!resume", "!replace Bob Zed"])),
    st.tuples(st.just("night-in-group"), st.sampled_from(
        ["!abduct Bob", "!exchange Ann", "!check Ann", "!protect Cid"])),
    st.tuples(st.just("lookalike"), st.sampled_from(LOOKALIKES) | huge),
    st.tuples(st.just("other-room"), st.sampled_from(
        ["!vote Ann", "!status", "!endgame", "!pause", "!early"])),
    st.tuples(st.just("unserved"), st.sampled_from(["!status", "!newgame changelings"])),
    st.tuples(st.just("malformed"), st.integers(min_value=0, max_value=11)),
)
ANSWERED = {"stranger-group", "stranger-private", "stranger-answer", "stranger-join",
            "stale-answer", "stale-join", "stale-prompt", "wrong-room", "host-power-in-private",
            "night-in-group", "lookalike", "other-room", "token-in-private"}


@dataclass(repr=False)  # hypothesis prints the arguments of a failing example
class Arena:
    table: Table
    stranger: Player
    elsewhere: str  # a room with the bot, Bob and the stranger, and no game
    declined: str  # a room whose invite the bot declined
    signup: dict[str, Any]
    poll: dict[str, Any]  # the open ballot (day 2's vote)
    stale_poll: dict[str, Any]  # day 1's election, ended
    stale_prompts: dict[str, dict[str, Any]]  # night 1's private keyboards
    reactions: dict[tuple[str, str, str], str] = field(default_factory=dict)

    def __repr__(self) -> str:
        return "Arena()"

    async def settle(self) -> None:
        await self.table.settle()
        await self.stranger.sync()


async def sent(who: Player, room_id: str, kind: str, body: dict[str, Any],
               tracked: bool = True) -> str | None:
    """Send whatever the server accepts (it refuses some malformed content, and relations
    to events it does not know or in another room: then nothing happened); a tracked event
    is one the table waits for the bot to read."""
    response = await who.client.room_send(room_id, kind, body)
    if not isinstance(response, RoomSendResponse):
        return None
    if tracked:
        who.sent.append(str(response.event_id))
    return str(response.event_id)


async def react(arena: Arena, who: Player, room_id: str, target: str, key: str) -> None:
    """A reaction; the same one again (a replay) first takes the earlier one back, as the
    server refuses a second identical annotation."""
    earlier = arena.reactions.pop((who.user_id, target, key), None)
    if earlier is not None:
        response = await who.client.room_redact(room_id, earlier)
        if hasattr(response, "event_id"):
            who.sent.append(str(response.event_id))
    event_id = await sent(who, room_id, "m.reaction", {"m.relates_to": {
        "rel_type": "m.annotation", "event_id": target, "key": key}})
    if event_id is not None:
        arena.reactions[(who.user_id, target, key)] = event_id


def answer_id(poll: dict[str, Any], index: int) -> str:
    answers = poll_answers(poll["content"])
    return answers[index % len(answers)][0]


def malformed(arena: Arena, number: int) -> tuple[str, dict[str, Any]]:
    """Contents no client should send (none of them a command or a real choice)."""
    poll = arena.poll["event_id"]
    ref = {"rel_type": "m.reference", "event_id": poll}
    found: list[tuple[str, dict[str, Any]]] = [
        ("m.room.message", {"msgtype": "m.text", "body": 5}),
        ("m.room.message", {"msgtype": "m.text"}),
        ("m.room.message", {"msgtype": "m.notice", "body": "!vote Ann"}),  # bots' notices
        ("m.room.message", {"msgtype": "m.text", "body": "> <@x:y> !vote Ann\n> 1",
                            "m.relates_to": {"m.in_reply_to": {"event_id": poll}}}),
        ("m.room.message", {"msgtype": "m.text", "body": "* !vote Ann",  # an edit of a poll
                            "m.new_content": {"msgtype": "m.text", "body": "!vote Ann"},
                            "m.relates_to": {"rel_type": "m.replace", "event_id": poll}}),
        ("m.reaction", {"m.relates_to": {"rel_type": "m.annotation", "event_id": poll,
                                         "key": 7}}),
        ("m.reaction", {"m.relates_to": {"rel_type": "m.reference",
                                         "event_id": arena.signup["event_id"],
                                         "key": KEYCAPS[0]}}),
        ("m.poll.response", {"m.relates_to": ref, "m.selections": "abc"}),
        ("m.poll.response", {"m.relates_to": ref, "m.selections": [1, None, {"a": 1}]}),
        ("m.poll.response", {"m.relates_to": ref,
                             "m.selections": ["forged", answer_id(arena.poll, 0)]}),
        ("org.matrix.msc3381.poll.response", {"m.relates_to": ref,
                                              "org.matrix.msc3381.poll.response": "x"}),
        ("m.poll.response", {"m.relates_to": {"rel_type": "m.reference", "event_id": 12},
                             "m.selections": [answer_id(arena.poll, 0)]}),
    ]
    return found[number % len(found)]


async def act(arena: Arena, kind: str, value: Any) -> Player:
    """Do one hostile thing; returns who did it (whose private room an answer goes to)."""
    table, zed = arena.table, arena.stranger
    bob, room = table.players["Bob"], table.room
    poll = arena.poll["event_id"]
    if kind == "stranger-group":
        await zed.say(room, value)
    elif kind == "stranger-private":
        await zed.say(str(zed.dm), value)
    elif kind == "stranger-chatter":  # no command: nothing to answer
        await zed.say(room, value)
    elif kind == "forged-encrypted":  # held for a room key that never comes: not waited for
        await sent(zed, room, "m.room.encrypted", {
            "algorithm": "m.megolm.v1.aes-sha2", "sender_key": value[:43],
            "session_id": value[-43:], "device_id": "FORGED", "ciphertext": value},
            tracked=False)
    elif kind == "stranger-answer":
        await zed.answer(room, poll, answer_id(arena.poll, value), stable=value % 2 == 0)
    elif kind == "stranger-join":
        await react(arena, zed, room, arena.signup["event_id"], join_key(arena))
    elif kind == "rename":
        await zed.client.set_displayname(value)
    elif kind == "forged-answer":
        await bob.answer(room, poll, value)
    elif kind == "not-a-poll":
        if value == "prompt":  # Ann's private keyboard, in her private room
            await sent(table.host, str(table.host.dm), "m.poll.response", poll_response(
                arena.stale_prompts["Ann"]["event_id"], answer_id(arena.poll, 1)))
            return table.host
        target = {"signup": arena.signup["event_id"], "news": news(table),
                  "made-up": "$" + "x" * 43}[value]
        await sent(bob, room, "m.poll.response",
                   poll_response(target, answer_id(arena.poll, 1)))
    elif kind == "stale-answer":
        await bob.answer(room, arena.stale_poll["event_id"], answer_id(arena.stale_poll, value))
    elif kind == "replayed-answer":  # yesterday's answer id on today's poll
        await bob.answer(room, poll, answer_id(arena.stale_poll, value), stable=False)
    elif kind == "cross-room-answer":  # today's poll, answered from Bob's private room:
        body = poll_response(poll, answer_id(arena.poll, value))  # Synapse refuses that,
        await sent(bob, str(bob.dm), "m.poll.response", body)
        del body["m.relates_to"]["rel_type"]  # but not without a rel_type
        await sent(bob, str(bob.dm), "m.poll.response", body)
    elif kind == "token-in-private":  # a poll answer id is a button token: a deep link
        ballot = arena.poll if value % 2 else arena.stale_poll
        await bob.say(str(bob.dm), f"!start {answer_id(ballot, value)}")
    elif kind == "stale-join":
        who = table.players[value]
        await react(arena, who, room, arena.signup["event_id"], join_key(arena))
        return who
    elif kind == "stale-prompt":
        name, number = value
        who = table.players[name]
        size = len(options(arena.stale_prompts[name]))
        await react(arena, who, str(who.dm), arena.stale_prompts[name]["event_id"],
                    KEYCAPS[(number - 1) % min(size, len(KEYCAPS))])
        return who
    elif kind == "random-key":
        where, key = value
        if where == "prompt":  # on Ann's private keyboard
            await react(arena, table.host, str(table.host.dm),
                        arena.stale_prompts["Ann"]["event_id"], key)
            return table.host
        await react(arena, bob, room, poll if where == "poll" else arena.signup["event_id"], key)
    elif kind == "cross-room-key":  # a keycap on Cid's private keyboard, from the group
        # (Synapse refuses a relation to another room's event; tried all the same)
        await react(arena, bob, room, arena.stale_prompts["Cid"]["event_id"],
                    KEYCAPS[value - 1])
    elif kind in ("wrong-room", "host-power-in-private"):
        await bob.say(str(bob.dm), value)
    elif kind == "night-in-group":
        await table.players["Eve"].say(room, value)
        return table.players["Eve"]
    elif kind == "lookalike":
        await bob.say(room, f"!vote {value}")
    elif kind == "other-room":
        await bob.say(arena.elsewhere, value)
    elif kind == "unserved":  # the bot is not in that room: nothing to wait for
        await sent(bob, arena.declined, "m.room.message", {"msgtype": "m.text", "body": value},
                   tracked=False)
    elif kind == "malformed":
        who = zed if value % 2 else bob
        event_type, body = malformed(arena, value)
        await sent(who, room, event_type, body)
        return who
    else:
        raise AssertionError(kind)
    return zed if kind.startswith(("stranger", "rename", "forged-enc")) else bob


def join_key(arena: Arena) -> str:
    number = next(n for n, label in options(arena.signup) if label == "Join")
    return KEYCAPS[number - 1]


def news(table: Table) -> str:
    """The bot's newest plain message in the group (an announcement, not a poll)."""
    return next(e["event_id"] for e in reversed(table.host.from_bot(table.room))
                if e.get("type") == "m.room.message")


@pytest.fixture
async def arena(synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 8,
                             host_only=True)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        signup = next(e for e in table.host.from_bot(table.room)  # the first version
                      if any(label == "Join" for _, label in options(e)))
        assert signup["event_id"] == signup_message(table)["event_id"] or \
            signup_message(table)["content"]["m.relates_to"]["event_id"] == signup["event_id"]
        election = open_poll(table)
        assert election is not None
        await table.let_time_pass(ruleset_longest_window("changelings"))  # night 1 comes
        stale = {name: private_prompt(table.players[name]) for name in ("Ann", "Cid", "Eve",
                                                                        "Hal")}
        assert all(stale.values()), stale
        for _ in range(2):  # dusk, dawn: day 2's vote
            await table.let_time_pass(ruleset_longest_window("changelings"))
        poll = open_poll(table)
        assert poll is not None and poll["event_id"] != election["event_id"]
        assert len(await living(table)) == 8

        bot = table.bot["user_id"]
        user = register("Zed")
        zed = Player("Zed", user["user_id"], await clients(user), bot, table.sent)
        await table.host.client.room_invite(table.room, zed.user_id)
        await zed.client.join(table.room)
        await zed.say(table.room, "hello")  # read by the bot: Zed shares a room with it
        await table.settle()
        zed.dm = await new_room(zed, bot, direct=True)
        elsewhere = await new_room(table.host, bot)
        bob = table.players["Bob"]
        declined = await new_room(bob, bot)  # only the host may invite the bot
        for who in (bob, zed):
            await table.host.client.room_invite(elsewhere, who.user_id)
            await who.client.join(elsewhere)
        assert await settled_membership(zed, zed.dm, bot) == "join"
        assert await settled_membership(table.host, elsewhere, bot) == "join"
        assert await settled_membership(bob, declined, bot) == "leave"
        found = Arena(table, zed, elsewhere, declined, signup, poll, election, stale)
        await zed.say(zed.dm, "!help")  # the private room works
        await found.settle()
        assert zed.from_bot(zed.dm)
        yield found
    finally:
        await table.stop()


# no shrinking (each step is a round trip through Synapse): a failing list is shown as it was
@settings(max_examples=4, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(actions=st.lists(ACTIONS, min_size=12, max_size=24))
async def test_hostile_events_change_nothing_and_are_answered(arena, caplog, actions):
    caplog.set_level(logging.WARNING)
    table = arena.table
    before = await LogEntry.all().count()
    game_before = (await table.game_row()).window
    everybody = [*table.players.values(), arena.stranger]
    for kind, value in actions:
        answers = {p.user_id: len(p.from_bot(p.dm)) for p in everybody}
        who = await act(arena, kind, value)
        await arena.settle()
        if kind in ANSWERED:  # an answer, or a notice for a refused press, privately
            assert len(who.from_bot(who.dm)) > answers[who.user_id], (kind, value)

    assert await LogEntry.all().count() == before  # the game did not change
    assert (await table.game_row()).window == game_before
    assert open_poll(table)["event_id"] == arena.poll["event_id"]
    assert not await Outbox.filter(status__in=["failed", "unknown"]).exists()
    # the service still works: the host asks for the status and gets it in the group
    shown = len(table.group_texts())
    await table.host.say(table.room, "!status")
    await arena.settle()
    assert any(t.startswith("Game: Changelings. Phase: Day 2")
               for t in table.group_texts()[shown:]), table.group_texts()[shown:]
    bad = [r for r in caplog.get_records("setup") + caplog.records
           if r.levelno >= logging.ERROR or "failed" in r.getMessage()]  # e.g. a sync
    assert not bad, [r.getMessage() for r in bad]
