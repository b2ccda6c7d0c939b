"""A player's own rooms with the bot, against a real Synapse (issue 30, problems 2, 3 and 5):

- an encrypted direct chat a player opens as Element's "Start chat" does (`is_direct`, the
  room encrypted from its creation) is his private room: the bot stays, reads, answers
  encrypted, and takes his night actions there;
- a player's name in a game is his display name in the game's room, whatever other room he
  opens with the bot (also where the bot cannot use that room and leaves it);
- a player who rejected his private room and asks for it again gets what waited for him
  once he has joined it, once, without the prompts and reminders of windows that closed.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from nio import RoomCreateResponse, RoomPreset

from core.engine.registry import load_ruleset
from core.service.messages import texts as service_texts
from core.storage.models import GameRecord, Identity, LogEntry, Outbox
from tests.role_cards import is_role_card

from .harness import (
    KEYCAPS,
    MEGOLM,
    Player,
    Table,
    event_texts,
    open_table,
    options,
    play_to_the_end,
    sign_up,
)
from .js_player import Isolation, Shown, say, seat
from .test_behaviour import membership
from .test_clients import bot_messages, until
from .test_encryption import bodies, chose, open_encrypted_dm, stored
from .test_people import nickname
from .test_rooms import eventually

REMINDED = "Time is running out"
CLOSED = "I cannot write to you"
JS_SEED = 12  # Jo, the js-sdk player, is dealt the researcher (a night check)


async def test_an_encrypted_direct_chat_a_player_opens_is_his_private_room(
        synapse, register, clients, tmp_path):
    """With the bot's default settings (its own private rooms unencrypted), three players
    open encrypted direct chats with it before the game: the bot stays in each, answers
    `!help` there, and deals their role cards and night prompts there; their night actions
    count; the server holds only ciphertext from the bot there."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 6,
                             encrypted=True, seed=6)
    try:
        bot = table.bot["user_id"]
        own = {name: await open_encrypted_dm(table, table.players[name])
               for name in ("Ann", "Cid", "Eve")}
        ann = table.players["Ann"]
        await ann.say(own["Ann"], "!help")
        await eventually(table, lambda: len(bodies(ann)) > 0)
        assert await membership(ann, own["Ann"], bot) == "join"  # it stayed

        await sign_up(table, "changelings", "!option random_lovers false")
        for name, player in table.players.items():
            assert any(is_role_card(t) for t in bodies(player)), name
            assert (player.dm == own[name]) if name in own else player.dm not in own.values()
        row = await play_to_the_end(table, seed=6)
        assert row.status == "ended"
        assert any(chose(body) for name in own  # night actions
                   for body in bodies(table.players[name]))
        acted = {e.command.get("actor") for e in await LogEntry.filter(game_id=row.id)
                 if e.command["type"] == "Act"}
        assert acted  # (counted by the engine)
        for room_id in own.values():
            said = [e["type"] for e in stored(synapse, room_id, table.bot["access_token"])
                    if e["sender"] == bot and "state_key" not in e]
            assert said and set(said) == {"m.room.encrypted"}, (room_id, set(said))
    finally:
        await table.stop()


def named(table: Table, player: Player, since: int) -> list[str]:
    """The group's texts from the `since`-th on that name the player or his localpart."""
    local = player.user_id[1:].split(":")[0]
    return [t for t in table.group_texts()[since:] if local in t]


async def test_a_player_is_named_as_in_the_game_room_whatever_room_he_opens(
        synapse, register, clients, tmp_path):
    """Bob goes by "Bobby" in the game room (a per-room name; "Bob" elsewhere). He opens an
    encrypted direct chat with a bot that cannot read encrypted rooms (encryption off): it
    leaves and tells him where to act, and he is still "Bobby" on the next ballot and in
    every text naming him — never his user id's localpart, never the name he has outside
    the game's room."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 6,
                             encryption=False)
    try:
        bob, bot = table.players["Bob"], table.bot["user_id"]
        await nickname(table, bob, "Bobby")
        await sign_up(table, "changelings", "!option random_lovers false")
        assert (await Identity.get(ref=bob.user_id)).name == "Bobby"
        before = len(table.group_texts())

        created = await bob.client.room_create(is_direct=True, invite=[bot],
                                               preset=RoomPreset.trusted_private_chat,
                                               initial_state=[MEGOLM])
        assert isinstance(created, RoomCreateResponse), created
        deadline = time.monotonic() + 30  # it joins, sees the encryption and leaves
        while await membership(bob, created.room_id, bot) != "leave":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        await eventually(table, lambda: any(t.startswith("You opened an encrypted room")
                                            for t in bodies(bob)))
        told = next(e for e in bob.from_bot(bob.dm)
                    if e["content"].get("body", "").startswith("You opened an encrypted room"))
        assert told["content"]["msgtype"] == "m.text"  # it rings: he is asked to act here
        assert told["content"]["m.mentions"] == {"user_ids": [bob.user_id]}
        assert (await Identity.get(ref=bob.user_id)).name == "Bobby"

        await table.let_time_pass(400)  # the day closes: its results name everyone
        for _ in range(6):
            if any("Bobby" in t for t in table.group_texts()[before:]):
                break
            await table.let_time_pass(400)
        assert any("Bobby" in t for t in table.group_texts()[before:]), \
            table.group_texts()[before:]
        assert not named(table, bob, before), named(table, bob, before)
        assert (await Identity.get(ref=bob.user_id)).name == "Bobby"
    finally:
        await table.stop()


async def waiting_room(table: Table, player: Player) -> str:
    assert table.adapter.parts is not None
    return table.adapter.directory.by_user[player.user_id][-1]


async def pass_time_until(table: Table, check: Any, step: float = 30.0,
                          limit: int = 80) -> None:
    for _ in range(limit):
        if await check():
            return
        await table.let_time_pass(step)
    raise AssertionError("never happened")


async def test_what_waited_for_a_reinvited_player_comes_once_he_joins_without_stale_prompts(
        synapse, register, clients, tmp_path):
    """Bob leaves his private room mid-game and rejects the bot's new invitation; the day's
    reminder and the night's prompt wait for him, the group is told he cannot be written to,
    and the windows they were for close. He reacts 1️⃣ as told and accepts the invitation:
    nothing reaches the room before he is in it; then what waited comes, once, without the
    reminders and prompts of the closed windows."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 6)
    try:
        bob = table.players["Bob"]
        await sign_up(table, "changelings", "!option random_lovers false")
        room = await waiting_room(table, bob)
        bob.accepts = False
        await bob.client.room_leave(room)
        await until(table, lambda: table.adapter.state.membership(room, bob.user_id) == "leave")

        async def invited_again() -> bool:  # the first message for him: a new invitation
            return table.adapter.state.membership(room, bob.user_id) == "invite"

        await pass_time_until(table, invited_again)
        assert not any(CLOSED in t for t in table.group_texts())  # the invitation asks him
        await bob.client.room_leave(room)  # he rejects it
        await until(table, lambda: table.adapter.state.membership(room, bob.user_id) == "leave")

        def closed() -> dict[str, Any] | None:
            return next((e for e in bot_messages(table.host, table.room)
                         if e["content"].get("body", "").startswith(f"Bob, {CLOSED}")), None)

        async def told() -> bool:
            return closed() is not None

        await pass_time_until(table, told)
        row = await GameRecord.all().order_by("-id").first()
        assert row is not None
        window = row.window

        async def window_passed() -> bool:
            game = await GameRecord.get(id=row.id)
            return game.window > window + 1 or game.status != "running"

        await pass_time_until(table, window_passed)
        event = closed()
        assert event is not None
        bob.accepts = True
        seen = {e.get("event_id") for e in bob.rooms.get(room, [])}
        await bob.react(table.room, event["event_id"], KEYCAPS[0])
        await until(table, lambda: table.adapter.state.membership(room, bob.user_id) == "join")
        await eventually(table, lambda: any(e.get("sender") == table.bot["user_id"]
                                            and e.get("event_id") not in seen
                                            for e in bob.rooms[room]))
        await table.settle()

        events = [e for e in bob.rooms[room] if e.get("event_id") not in seen]
        join = next(e for e in events if e.get("type") == "m.room.member"
                    and e.get("state_key") == bob.user_id
                    and e["content"].get("membership") == "join")
        said = [e for e in events if e.get("sender") == table.bot["user_id"]
                and e.get("type") == "m.room.message"]
        # nothing was written behind the invitation: all of it after his join
        assert all(e["origin_server_ts"] >= join["origin_server_ts"] for e in said)
        texts = [t for e in said for t in event_texts(e)]
        assert texts
        stale = stale_texts()
        assert not [t for t in texts if t.startswith(stale)], texts  # closed windows'
        closed_prompts = [t for t in texts if t.endswith(closing_texts())]
        assert not closed_prompts, closed_prompts  # a prompt he never had, closed
        bobs = await Identity.get(ref=bob.user_id)
        dropped = [r for r in await Outbox.filter(identity_id=bobs.id, status="superseded")
                   if r.payload.get("window") is not None]
        assert dropped  # there were some: the reminders (and prompts) of the closed windows
    finally:
        await table.stop()


def closing_texts() -> tuple[str, ...]:
    """How a prompt closed with its window ends, in the core's words and the changelings'
    voice."""
    voice = load_ruleset("changelings").voice
    return (service_texts.CHOICES_CLOSED, *voice.get("CHOICES_CLOSED", ()))


def stale_texts() -> tuple[str, ...]:
    """How a reminder begins, in the core's words and the changelings' voice."""
    voice = load_ruleset("changelings").voice
    found = [service_texts.REMIND_VOTE, service_texts.REMIND_CHOICE,
             *voice.get("REMIND_VOTE", ()), *voice.get("REMIND_CHOICE", ())]
    return tuple(text.split("{")[0] for text in found)


async def test_elements_start_chat_is_the_js_sdk_players_private_room(
        synapse, register, clients, js_players, tmp_path):
    """A matrix-js-sdk player (Rust crypto, cross-signing bootstrapped, excluding insecure
    devices) opens a direct chat with the bot as Element's "Start chat" does (`createRoom`
    with `is_direct`, the trusted private chat preset and `m.room.encryption` in its
    initial state). The bot stays; `!help` there is answered, encrypted, and the SDK
    decrypts it; his role card and night prompt come there, his
    choice by number is noted; and his name in the game is the one the SDK gives him in the
    game's room (`RoomMember.name`), also after he opened the chat."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 5,
                             encrypted=True, seed=JS_SEED)
    try:
        bot = table.bot["user_id"]
        jo = await js_players(register("Jo"), "Jo")
        await jo.bootstrap_cross_signing()  # set up as Element sets up a new account,
        await jo.isolation(Isolation.SIGNED)  # excluding insecure devices
        await seat(table, jo)
        dm = await jo.create_dm(bot)

        async def bot_in() -> bool:
            return await jo.membership(dm, bot) == "join"

        await jo.until("the bot in his direct chat", bot_in)
        await say(table, jo, dm, "!help")
        await table.settle()

        async def answers() -> list[Shown]:
            return [e for e in await jo.from_sender(dm, bot) if e.type == "m.room.message"]

        shown = await jo.until("the bot's answer", answers)
        assert all(e.encrypted and e.decryption_failure is None for e in shown), shown
        assert await jo.membership(dm, bot) == "join"  # it stayed

        await table.host.say(table.room, "!newgame changelings")
        await table.settle()
        for player in list(table.players.values())[1:]:
            await player.say(table.room, "!join")
        await say(table, jo, table.room, "!join")
        await table.settle()
        await table.host.say(table.room, "!option random_lovers false")
        await table.host.say(table.room, "!startgame")
        await table.settle()

        async def card() -> list[Shown]:
            return [e for e in await answers() if is_role_card(e.body)]

        [role_card] = await jo.until("his role card", card)
        assert role_card.encrypted and role_card.notify  # it rings
        sdk_name = await jo.display_name(table.room, jo.user_id)
        assert (await Identity.get(ref=jo.user_id)).name == sdk_name == "Jo"

        prompt: list[Shown] = []
        for _ in range(8):  # the day closes; the night prompts come
            await table.let_time_pass(400)
            prompt = [e for e in await answers() if options({"content": e.content})
                      and not e.replaced_by]
            if prompt:
                break
        assert prompt, [e.body for e in await answers()]
        number, _ = options({"content": prompt[-1].content})[0]
        await say(table, jo, dm, str(number))
        await table.settle()

        async def noted() -> bool:
            return any(chose(e.body) for e in await answers())

        assert await jo.until("his choice noted", noted)
        row = await GameRecord.all().order_by("-id").first()
        assert row is not None
        acts = [e.command for e in await LogEntry.filter(game_id=row.id)
                if e.command["type"] == "Act"]
        assert acts, "his night action was not counted"
        assert (await Identity.get(ref=jo.user_id)).name == "Jo"
    finally:
        await table.stop()
