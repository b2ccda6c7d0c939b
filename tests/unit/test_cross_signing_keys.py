"""The Matrix bot's cross-signing keys without a server: what it signs verifies with the
public halves it publishes (signedjson, as Synapse checks them), a device signed by other
keys or changed since is not taken for signed, and the key file stays the bot's alone."""

from __future__ import annotations

import os
import stat

import pytest
from signedjson.key import decode_verify_key_base64
from signedjson.sign import verify_signed_json

from adapters.matrix.client.cross_signing import KeyFile, key_file_path
from adapters.matrix.protocol.signing import CrossSigningKeys, Usage

BOT = "@nightfall:example.org"
DEVICE = {"user_id": BOT, "device_id": "NIGHTFALL",
          "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
          "keys": {"curve25519:NIGHTFALL": "c" * 43, "ed25519:NIGHTFALL": "e" * 43},
          "signatures": {BOT: {"ed25519:NIGHTFALL": "s" * 86}},
          "unsigned": {"device_display_name": "Nightfall"}}


def verify_key(keys: CrossSigningKeys, usage: Usage):  # type: ignore[no-untyped-def]
    public = keys.public(usage)
    return decode_verify_key_base64("ed25519", public, public)


def test_the_published_keys_are_signed_by_the_master_key():
    keys = CrossSigningKeys.generate(BOT)
    body = keys.upload_body()
    assert set(body) == {"master_key", "self_signing_key", "user_signing_key"}
    assert body["master_key"]["keys"] == {keys.key_id(Usage.MASTER): keys.public(Usage.MASTER)}
    for usage in (Usage.SELF_SIGNING, Usage.USER_SIGNING):
        key = body[f"{usage.value}_key"]
        assert key["usage"] == [usage.value] and key["user_id"] == BOT
        verify_signed_json(key, BOT, verify_key(keys, Usage.MASTER))
    assert len({keys.public(u) for u in Usage}) == 3


def test_a_device_is_signed_by_the_self_signing_key_and_keeps_its_own_signature():
    keys = CrossSigningKeys.generate(BOT)
    signed = keys.sign_device(DEVICE)
    verify_signed_json(signed, BOT, verify_key(keys, Usage.SELF_SIGNING))
    assert signed["signatures"][BOT]["ed25519:NIGHTFALL"] == "s" * 86
    assert signed["unsigned"] == DEVICE["unsigned"] and "signatures" in DEVICE  # a copy
    assert keys.signed_device(signed)
    assert not keys.signed_device(DEVICE)
    assert not CrossSigningKeys.generate(BOT).signed_device(signed)  # someone else's keys
    changed = {**signed, "keys": {**signed["keys"], "ed25519:NIGHTFALL": "f" * 43}}
    assert not keys.signed_device(changed)


def test_the_keys_survive_json_and_never_show_their_seeds():
    keys = CrossSigningKeys.generate(BOT)
    assert CrossSigningKeys.from_json(keys.to_json()) == keys
    shown = repr(keys) + str(keys)
    assert not any(seed in shown for seed in (keys.master, keys.self_signing, keys.user_signing))
    assert keys.key_id(Usage.MASTER) in shown


def test_the_key_file_is_the_bots_alone(tmp_path):
    path = tmp_path / "state" / "matrix-store.cross-signing.json"
    keys = CrossSigningKeys.generate(BOT)
    KeyFile(path).save(keys)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert os.listdir(path.parent) == [path.name]  # nothing half-written left beside it
    assert KeyFile(path).load() == keys
    os.chmod(path, 0o644)
    assert KeyFile(path).load() == keys
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert KeyFile(tmp_path / "missing.json").load() is None
    path.write_text("{")  # a damaged file is an error (the adapter logs it), never replaced
    with pytest.raises(ValueError):
        KeyFile(path).load()


def test_the_key_file_lies_beside_the_store_unless_configured():
    assert str(key_file_path("/data/matrix-store", None)) == \
        "/data/matrix-store.cross-signing.json"
    assert str(key_file_path("/data/matrix-store/", None)) == \
        "/data/matrix-store.cross-signing.json"
    assert str(key_file_path("/data/store", "/secrets/xs.json")) == "/secrets/xs.json"
    assert key_file_path(None, None) is None
