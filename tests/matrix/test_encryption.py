"""Encrypted rooms: a game in an encrypted group room where the host asked for encrypted
private rooms (`encrypt_private`), with role cards and night actions in private rooms the
players opened encrypted themselves (as Element does) or the bot opened encrypted, the
players' clients encrypting too; and a restarted bot that still reads and answers there,
with the same device and key store.

An encrypted room a player opens with the bot is his private room whatever the host's
settings (see test_dms.py); a player whose messages the bot cannot decrypt is told so,
privately and once in the group.

What the server holds is checked as well: in an encrypted room nothing the bot said is
plaintext."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any
from urllib.parse import quote

from nio import RoomCreateResponse, RoomPreset

from core.engine.registry import load_ruleset
from core.storage.models import LogEntry
from tests.role_cards import is_role_card

from .harness import MEGOLM, Player, Table, open_table, play_to_the_end, sign_up, signup_message
from .synapse import Synapse
from .test_behaviour import settled_membership
from .test_clients import asked


def rings(event: dict[str, Any], player: Player) -> bool:
    """A private message that asks the player to act: an `m.text` that mentions him (the
    default push rules keep a notice quiet)."""
    return event["content"].get("msgtype") == "m.text" and \
        event["content"].get("m.mentions") == {"user_ids": [player.user_id]}



def chose(body: str, ruleset: str = "changelings") -> bool:
    """Whether a text of the bot confirms a night choice (a keyboard edited to say it, or
    the notice of a choice that closed its window) in the game's voice: each confirmation
    opens with one of its texts' words before the first placeholder."""
    voice = load_ruleset(ruleset).voice
    stems = {variant.split("{")[0] for name in CHOICES for variant in voice[name]}
    return any(stem and stem in body for stem in stems)


CHOICES = ("CHOICE_ACTION_ON", "CHOICE_ACTION", "CHOICE_PAIR", "CHOICE_PASS")


async def open_encrypted_dm(table: Table, player: Player) -> str:
    """The player starts an encrypted direct chat with the bot, waits for the bot to join
    and reads the room again (so their client knows the bot's device before writing)."""
    bot = table.bot["user_id"]
    created = await player.client.room_create(is_direct=True, invite=[bot],
                                              preset=RoomPreset.trusted_private_chat,
                                              initial_state=[MEGOLM])
    assert isinstance(created, RoomCreateResponse), created
    assert await settled_membership(player, created.room_id, bot) == "join"
    player.dm = created.room_id
    await table.settle()
    return str(created.room_id)


def stored(synapse: Synapse, room_id: str, token: str) -> list[dict[str, Any]]:
    """The room's events as the server keeps them (no client decrypts them here)."""
    path = f"{room_path(room_id)}/messages?dir=b&limit=1000"
    return list(synapse.http("GET", path, token=token)["chunk"])


def is_encrypted(synapse: Synapse, room_id: str, token: str) -> bool:
    path = f"{room_path(room_id)}/state/m.room.encryption"
    try:
        synapse.http("GET", path, token=token)
    except RuntimeError as err:
        assert "404" in str(err), err
        return False
    return True


def room_path(room_id: str) -> str:
    return f"/_matrix/client/v3/rooms/{quote(room_id, safe='')}"


def bodies(player: Player) -> list[str]:
    return [str(e.get("content", {}).get("body", "")) for e in player.from_bot(player.dm)]


async def test_a_game_in_an_encrypted_group_with_encrypted_private_rooms(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 6,
                             encrypted=True, seed=6, encrypt_private=True)
    try:
        own = {name: await open_encrypted_dm(table, table.players[name])
               for name in ("Ann", "Cid", "Eve")}
        await sign_up(table, "changelings", "!option random_lovers false")
        for name, player in table.players.items():  # role cards, all encrypted
            assert any(is_role_card(t) for t in bodies(player)), name
            assert (player.dm == own[name]) if name in own else player.dm not in own.values()
            assert is_encrypted(synapse, player.dm, table.bot["access_token"])

        row = await play_to_the_end(table, seed=6)
        assert row.status == "ended"
        assert any(chose(body) for name in own  # night actions
                   for body in bodies(table.players[name]))
        commands = [e.command["type"] for e in await LogEntry.filter(game_id=row.id)]
        assert "Vote" in commands  # encrypted poll answers were read
        assert any(" win" in t.lower() or " won" in t.lower() for t in table.group_texts())
        assert table.adapter.crypto is not None and table.adapter.crypto.held == 0

        token = table.bot["access_token"]
        for room_id in (table.room, *own.values()):
            events = stored(synapse, room_id, token)
            said = [e["type"] for e in events
                    if e["sender"] == table.bot["user_id"] and "state_key" not in e]
            assert said and set(said) == {"m.room.encrypted"}, (room_id, set(said))
            written = {e["type"] for e in events
                       if e["sender"] != table.bot["user_id"] and "state_key" not in e}
            assert written <= {"m.room.encrypted", "m.reaction"}, written  # nio: plain 👍
    finally:
        await table.stop()


async def test_a_restarted_bot_reads_its_encrypted_rooms_with_the_same_key_store(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 3,
                             encrypted=True, encrypt_private=True)
    try:
        ann, bob = table.players["Ann"], table.players["Bob"]
        await open_encrypted_dm(table, bob)
        await ann.say(table.room, "!help")
        await table.settle()
        assert any(t.startswith("Commands in the group") for t in table.group_texts())
        assert table.adapter.client is not None and table.adapter.client.olm is not None
        keys = table.adapter.client.olm.account.identity_keys

        await table.stop()  # while the bot is away, Ann writes with the room key it has
        await ann.say(table.room, "!newgame changelings")
        await table.start()  # same account, device id and key store
        await table.settle()
        assert table.adapter.client is not None and table.adapter.client.olm is not None
        assert table.adapter.client.device_id == table.bot["device_id"]
        assert table.adapter.client.olm.account.identity_keys == keys  # from the store
        signup_message(table)  # the command was read, the answer could be read

        for player in (ann, bob):  # new room keys now, sent to the bot's device by Olm
            player.client.invalidate_outbound_session(table.room)
        bob.client.invalidate_outbound_session(str(bob.dm))
        await bob.say(table.room, "!join")
        await bob.say(str(bob.dm), "!help")
        await table.settle()
        assert any(t.startswith("You are in!") for t in bodies(bob))
        assert any(t.startswith("Send me your night actions") for t in bodies(bob))
        assert any("Signed up so far: Ann and Bob (2 players)." in t for t in table.group_texts())
        assert table.adapter.crypto is not None and table.adapter.crypto.held == 0
    finally:
        await table.stop()


async def test_a_message_whose_room_key_comes_late_is_read_when_it_comes(
        synapse, register, clients, tmp_path):
    """The room key of a message reaches the bot's device only after the message: the bot
    holds the message (not read, not skipped) and reads it when the key comes."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2,
                             encrypted=True)
    try:
        ann, bot = table.host, table.bot
        await ann.say(table.room, "!help")  # Ann's device and the bot's have an Olm session
        await table.settle()
        olm = ann.client.olm
        assert olm is not None and table.adapter.crypto is not None
        olm.create_outbound_group_session(table.room)  # a new room key, given to nobody yet
        session = olm.outbound_group_sessions[table.room]
        room_key = {"algorithm": "m.megolm.v1.aes-sha2", "room_id": table.room,
                    "session_id": session.id, "session_key": session.session_key}
        session.shared = True  # lets nio encrypt with it; the message goes out first
        kind, payload = ann.client.encrypt(table.room, "m.room.message",
                                           {"msgtype": "m.text", "body": "!newgame changelings"})
        event_id = synapse.http("PUT", f"{room_path(table.room)}/send/{kind}/"
                                f"{secrets.token_hex(8)}", payload,
                                token=ann.client.access_token)["event_id"]
        deadline = time.monotonic() + 15
        while table.adapter.crypto.held == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert table.adapter.crypto.held == 1 and not table.adapter.has_seen(event_id)

        device = olm.device_store[bot["user_id"]][bot["device_id"]]  # now the key comes
        sealed = olm._olm_encrypt(olm.session_store.get(device.curve25519), device,
                                  "m.room_key", room_key)
        synapse.http("PUT", f"/_matrix/client/v3/sendToDevice/m.room.encrypted/"
                     f"{secrets.token_hex(8)}",
                     {"messages": {bot["user_id"]: {bot["device_id"]: sealed}}},
                     token=ann.client.access_token)
        ann.sent.append(event_id)
        await table.settle()
        signup_message(table)  # the command was read
        assert table.adapter.crypto.held == 0
    finally:
        await table.stop()


async def test_a_message_waiting_for_its_room_key_outlives_a_restart(
        synapse, register, clients, tmp_path):
    """The bot stops while a message waits for its room key (the sync token has moved on
    past it): the next process holds it still, and reads it when the key comes."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2,
                             encrypted=True)
    try:
        ann, bot = table.host, table.bot
        await ann.say(table.room, "!help")
        await table.settle()
        olm = ann.client.olm
        assert olm is not None and table.adapter.crypto is not None
        olm.create_outbound_group_session(table.room)  # a new room key, given to nobody yet
        session = olm.outbound_group_sessions[table.room]
        room_key = {"algorithm": "m.megolm.v1.aes-sha2", "room_id": table.room,
                    "session_id": session.id, "session_key": session.session_key}
        session.shared = True
        kind, payload = ann.client.encrypt(table.room, "m.room.message",
                                           {"msgtype": "m.text", "body": "!newgame changelings"})
        event_id = synapse.http("PUT", f"{room_path(table.room)}/send/{kind}/"
                                f"{secrets.token_hex(8)}", payload,
                                token=ann.client.access_token)["event_id"]
        deadline = time.monotonic() + 15
        while table.adapter.crypto.held == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert table.adapter.crypto.held == 1
        await asyncio.sleep(0.5)  # the sync that held it has stored its token
        await table.stop()
        await table.start()
        assert table.adapter.crypto is not None and table.adapter.crypto.held == 1

        device = olm.device_store[bot["user_id"]][bot["device_id"]]  # now the key comes
        sealed = olm._olm_encrypt(olm.session_store.get(device.curve25519), device,
                                  "m.room_key", room_key)
        synapse.http("PUT", f"/_matrix/client/v3/sendToDevice/m.room.encrypted/"
                     f"{secrets.token_hex(8)}",
                     {"messages": {bot["user_id"]: {bot["device_id"]: sealed}}},
                     token=ann.client.access_token)
        ann.sent.append(event_id)
        await table.settle()
        signup_message(table)  # the command was read
        assert table.adapter.crypto.held == 0
    finally:
        await table.stop()


async def withheld(table: Table, player: Player, text: str) -> str:
    """An encrypted message whose room key the bot's device never gets (as from a client
    that shares keys only with verified devices)."""
    olm = player.client.olm
    assert olm is not None
    olm.create_outbound_group_session(table.room)
    olm.outbound_group_sessions[table.room].shared = True
    kind, payload = player.client.encrypt(table.room, "m.room.message",
                                          {"msgtype": "m.text", "body": text})
    return str(table.synapse.http("PUT", f"{room_path(table.room)}/send/{kind}/"
                                  f"{secrets.token_hex(8)}", payload,
                                  token=player.client.access_token)["event_id"])


async def test_a_player_the_bot_cannot_decrypt_is_told_privately_and_the_group_once(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2,
                             encrypted=True, key_wait=1.0)
    try:
        ann = table.host
        await ann.say(table.room, "!newgame changelings")
        await table.settle()
        await withheld(table, ann, "!status")
        group = "I cannot read Ann's encrypted messages, so their commands do not reach me."

        def told() -> int:
            return sum(t.startswith(group) for t in table.group_texts())

        deadline = time.monotonic() + 30
        while not told() and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            await table.settle()
        assert told() == 1
        assert any(t.startswith("I cannot read your encrypted messages") for t in bodies(ann))
        # both ask Ann to act (write here, or share keys): each mentions her (the group's
        # with a pill); her client rings, as the server cannot read an encrypted room
        [in_group] = [e for e in table.host.from_bot(table.room)
                      if e["content"].get("body", "").startswith(group)]
        assert asked(in_group, ann), in_group
        alone = next(e for e in ann.from_bot(ann.dm) if e["content"].get(
            "body", "").startswith("I cannot read your encrypted messages"))
        assert rings(alone, ann), alone
        olm = table.adapter.client.olm if table.adapter.client else None
        assert olm is not None and olm.outgoing_key_requests  # the key was asked for

        privately = len(bodies(ann))
        await withheld(table, ann, "!status")  # a new session: told privately again
        deadline = time.monotonic() + 30
        while len(bodies(ann)) == privately and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            await table.settle()
        assert len(bodies(ann)) == privately + 1 and told() == 1  # the group: once
    finally:
        await table.stop()


async def test_undecryptable_events_held_per_sender_are_capped():
    """One sender flooding the bot with events it cannot decrypt pushes out only his own
    oldest; the others' wait on."""
    from nio import AsyncClient

    from adapters.matrix.client.crypto import Crypto
    from adapters.matrix.protocol.held import PER_SENDER

    client = AsyncClient("http://127.0.0.1:9", "@bot:localhost")
    try:
        crypto = Crypto(client)
        crypto.hold("!room", {"event_id": "$other", "sender": "@ann:localhost"})
        for n in range(PER_SENDER + 10):
            crypto.hold("!room", {"event_id": f"$flood{n}", "sender": "@mallory:localhost"})
        kept = {event["event_id"] for _, event, _ in crypto.kept()}
        assert crypto.held == PER_SENDER + 1
        assert "$other" in kept and "$flood0" not in kept and f"$flood{PER_SENDER + 9}" in kept
    finally:
        await client.close()
