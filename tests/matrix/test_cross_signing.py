"""The bot's cross-signing identity against a real Synapse: its keys published and its device
signed on first start, the same identity after a restart and after the loss of its device
store (a new device, signed with the kept keys), and the reason for all of it: a player whose
client excludes insecure devices (matrix-js-sdk's OnlySignedDevicesIsolationMode, Element's
"exclude insecure devices") reads the bot in an encrypted game room, and is read by it."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from signedjson.key import decode_verify_key_base64
from signedjson.sign import verify_signed_json

from adapters.matrix.client.cross_signing import KeyFile, Standing
from adapters.matrix.protocol.signing import Usage
from core.cli import main
from core.storage.models import Seat

from .harness import Table, open_table, signup_message
from .js_player import Isolation, say, seat
from .synapse import Synapse


def published(synapse: Synapse, table: Table) -> dict[str, Any]:
    """What any client learns of the bot's keys (/keys/query, as the host asks)."""
    bot = table.bot["user_id"]
    return synapse.http("POST", "/_matrix/client/v3/keys/query",
                        {"device_keys": {bot: []}}, token=table.host.client.access_token)


def key_file(table: Table) -> Path:
    store = Path(str(table.settings.store_path))
    return store.with_name(store.name + ".cross-signing.json")


def check_signed(synapse: Synapse, table: Table, device_id: str) -> str:
    """The bot's master key (returned), its self-signing key signed by it, and the device's
    keys signed by the self-signing key, all as the server hands them to clients."""
    bot = table.bot["user_id"]
    keys = published(synapse, table)
    master = keys["master_keys"][bot]
    self_signing = keys["self_signing_keys"][bot]
    assert master["usage"] == ["master"] and self_signing["usage"] == ["self_signing"]
    (master_id, master_public), = master["keys"].items()
    (_, ssk_public), = self_signing["keys"].items()
    verify_signed_json(self_signing, bot, decode_verify_key_base64(
        "ed25519", master_public, master_public))
    device = keys["device_keys"][bot][device_id]
    verify_signed_json(device, bot, decode_verify_key_base64("ed25519", ssk_public, ssk_public))
    kept = KeyFile(key_file(table)).load()
    assert kept is not None and master_id == kept.key_id(Usage.MASTER)  # the kept keys
    return str(master_public)


async def test_the_bot_publishes_cross_signing_keys_and_signs_its_device(
        synapse, register, clients, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 1)
    try:
        assert table.adapter.cross_signing is Standing.SIGNED
        check_signed(synapse, table, table.bot["device_id"])
        path = key_file(table)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert not path.is_relative_to(Path(str(table.settings.store_path)))
        kept = KeyFile(path).load()
        assert kept is not None
        seeds = [v for k, v in kept.to_json().items() if k != "user_id"]
        assert not any(seed in caplog.text for seed in seeds)  # never in a log
    finally:
        await table.stop()


async def test_a_restart_keeps_the_identity(synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 1)
    try:
        master = check_signed(synapse, table, table.bot["device_id"])
        await table.stop()
        await table.start()
        assert table.adapter.cross_signing is Standing.SIGNED
        assert check_signed(synapse, table, table.bot["device_id"]) == master
    finally:
        await table.stop()


async def test_a_new_device_after_a_lost_store_is_signed_with_the_kept_keys(
        synapse, register, clients, js_players, tmp_path):
    """The same identity on the new device: a player who excludes insecure devices, having
    known the old one, gives the new device his room key (the bot reads his `!newgame`) and
    reads its answer without a warning."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 1,
                             encrypted=True)
    try:
        jo = await js_players(register("Jo"), "Jo")
        await jo.bootstrap_cross_signing()
        await jo.isolation(Isolation.SIGNED)
        await seat(table, jo)
        master = check_signed(synapse, table, table.bot["device_id"])
        await table.stop()
        shutil.rmtree(str(table.settings.store_path))  # the device's keys are gone
        bot = table.bot
        login = synapse.http("POST", "/_matrix/client/v3/login", {
            "type": "m.login.password", "password": bot["password"],
            "identifier": {"type": "m.id.user", "user": bot["user_id"]}})
        assert login["device_id"] != bot["device_id"]
        await table.start(access_token=login["access_token"], device_id=login["device_id"])
        assert table.adapter.cross_signing is Standing.SIGNED
        assert check_signed(synapse, table, login["device_id"]) == master

        await say(table, jo, table.room, "!newgame changelings")
        await table.settle()
        signup = signup_message(table)

        async def shown() -> list[Any]:
            return [e for e in await jo.from_sender(table.room, bot["user_id"])
                    if e.event_id == signup["event_id"] and e.decryption_failure is None]

        event, = await jo.until("the sign-up from the new device", shown)
        assert event.sender_device == login["device_id"]
        assert await jo.shield(table.room, event.event_id) == {"colour": 0, "reason": None}
    finally:
        await table.stop()


async def test_a_token_only_bot_whose_keys_were_lost_asks_the_host_once(
        synapse, register, clients, tmp_path, caplog):
    """Replacing the keys the server holds takes the account's password: a bot with an
    access token alone says what to do, and `nightfall matrix cross-sign` does it."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 1)
    try:
        old = check_signed(synapse, table, table.bot["device_id"])
        await table.stop()
        key_file(table).unlink()  # as if the host had set the account up in Element
        caplog.set_level(logging.WARNING)
        await table.start()
        assert table.adapter.cross_signing is Standing.NEEDS_PASSWORD
        assert "nightfall matrix cross-sign" in caplog.text
        assert table.bot["password"] not in caplog.text
        await table.stop()

        config = tmp_path / "nightfall.toml"
        config.write_text("[matrix]\nenabled = true\n" + "".join(
            f"{key} = {json.dumps(value)}\n" for key, value in {
                "homeserver": synapse.url, "user_id": table.bot["user_id"],
                "access_token": table.bot["access_token"],
                "store_path": str(table.settings.store_path)}.items()))
        ran = await asyncio.to_thread(CliRunner().invoke, main, [
            "matrix", "cross-sign", "--config", str(config)], input=table.bot["password"] + "\n")
        assert ran.exit_code == 0, ran.output
        assert "is cross-signed" in ran.output and table.bot["password"] not in ran.output
        new = check_signed(synapse, table, table.bot["device_id"])
        assert new != old

        await table.start()
        assert table.adapter.cross_signing is Standing.SIGNED
        assert check_signed(synapse, table, table.bot["device_id"]) == new
    finally:
        await table.stop()


async def test_a_bot_with_its_password_replaces_lost_keys_itself(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 1)
    try:
        old = check_signed(synapse, table, table.bot["device_id"])
        await table.stop()
        key_file(table).unlink()
        await table.start(password=table.bot["password"])
        assert table.adapter.cross_signing is Standing.SIGNED
        assert check_signed(synapse, table, table.bot["device_id"]) != old  # a reset identity
    finally:
        await table.stop()


@pytest.mark.parametrize("mode", [Isolation.SIGNED, Isolation.ALL])
async def test_a_player_who_excludes_insecure_devices_reads_the_bot_and_is_read(
        synapse, register, clients, js_players, tmp_path, mode):
    """On a bot without cross-signing a client that excludes insecure devices (`SIGNED`)
    refuses the bot's messages (DecryptionFailureCode.UNSIGNED_SENDER_DEVICE) and withholds
    his room key from it, so his `!join` is never read. With `ALL` (the SDK's default) it
    holds as well."""
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 2,
                             encrypted=True)
    try:
        jo = await js_players(register("Jo"), "Jo")
        await jo.bootstrap_cross_signing()  # as Element sets up a new account
        await jo.isolation(mode)
        await seat(table, jo)
        bot, device = table.bot["user_id"], table.bot["device_id"]
        await table.host.say(table.room, "!newgame changelings")
        await table.settle()
        signup = signup_message(table)

        async def shown() -> list[Any]:
            return [e for e in await jo.from_sender(table.room, bot)
                    if e.event_id == signup["event_id"] and e.type == "m.room.message"]

        event, = await jo.until("the sign-up", shown)
        assert event.encrypted and event.decryption_failure is None, event
        assert "Join" in event.body
        # everything from the sign-up on (the bot's greeting came before Jo joined: an
        # encrypted room's earlier messages were never shared with him, as in Element)
        mine = await jo.from_sender(table.room, bot)
        since = next(i for i, e in enumerate(mine) if e.event_id == signup["event_id"])
        assert all(e.decryption_failure is None for e in mine[since:])
        # no warning beside it (Element's shield: EventShieldColour.NONE)
        assert await jo.shield(table.room, event.event_id) == {"colour": 0, "reason": None}

        await say(table, jo, table.room, "!join")
        await table.settle()
        assert await Seat.filter(identity__ref=jo.user_id, active=True).exists()
        trust = await jo.device_trust(bot, device)  # why: the bot's device, signed by the bot
        assert trust.user_has_cross_signing_keys and trust.signed_by_owner, trust
    finally:
        await table.stop()
