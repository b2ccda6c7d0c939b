"""The bot's cross-signing identity, as the spec's "Cross-signing" section defines it: three
ed25519 key pairs of the account (master, self-signing, user-signing), the master key
signing the other two, the self-signing key signing the account's devices.

A client that excludes insecure devices (Element's "exclude insecure devices", the SDKs'
OnlySignedDevicesIsolationMode) neither gives room keys to nor decrypts from a device its
owner has not signed: with its device signed by its self-signing key, the bot counts as
such a device. Verifying the bot (comparing its master key, or emoji) stays the player's
choice; without it his client trusts the first master key it sees.

Keys and signatures come from PyNaCl and `signedjson` (Synapse's own libraries: canonical
JSON, unpadded base64); nothing here is hand-written crypto, and nothing here does I/O."""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass
from typing import Any

from signedjson.key import (
    decode_signing_key_base64,
    decode_verify_key_base64,
    encode_signing_key_base64,
    encode_verify_key_base64,
    generate_signing_key,
    get_verify_key,
)
from signedjson.sign import SignatureVerifyException, verify_signed_json
from signedjson.sign import sign_json as _sign_json
from signedjson.types import SigningKey

ED25519 = "ed25519"


class Usage(enum.StrEnum):
    MASTER = "master"
    SELF_SIGNING = "self_signing"
    USER_SIGNING = "user_signing"


def _key(seed: str) -> SigningKey:
    """A signing key whose `version` (the part after "ed25519:" in its key id) is its public
    key, as cross-signing keys are named."""
    key = decode_signing_key_base64(ED25519, "", seed)
    key.version = encode_verify_key_base64(get_verify_key(key))
    return key


def sign_json(value: dict[str, Any], user_id: str, key: SigningKey) -> dict[str, Any]:
    """`value` with the key's signature added (its other signatures kept; a copy)."""
    signed: dict[str, Any] = _sign_json(copy.deepcopy(value), user_id, key)
    return signed


@dataclass(frozen=True)
class CrossSigningKeys:
    """The three private keys of one account, as seeds (unpadded base64)."""

    user_id: str
    master: str
    self_signing: str
    user_signing: str

    @classmethod
    def generate(cls, user_id: str) -> CrossSigningKeys:
        seeds = [encode_signing_key_base64(generate_signing_key("")) for _ in Usage]
        return cls(user_id, *seeds)

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> CrossSigningKeys:
        return cls(str(value["user_id"]), *(str(value[usage.value]) for usage in Usage))

    def to_json(self) -> dict[str, str]:
        return {"user_id": self.user_id, **{u.value: self._seed(u) for u in Usage}}

    def __repr__(self) -> str:  # never the seeds, whatever prints this
        return f"CrossSigningKeys({self.user_id}, master {self.key_id(Usage.MASTER)})"

    def _seed(self, usage: Usage) -> str:
        return str(getattr(self, usage.value))

    def signing_key(self, usage: Usage) -> SigningKey:
        return _key(self._seed(usage))

    def public(self, usage: Usage) -> str:
        return str(self.signing_key(usage).version)

    def key_id(self, usage: Usage) -> str:
        return f"{ED25519}:{self.public(usage)}"

    def key_object(self, usage: Usage) -> dict[str, Any]:
        """The public key as /keys/device_signing/upload takes it; the self- and user-signing
        keys signed by the master key."""
        value: dict[str, Any] = {"user_id": self.user_id, "usage": [usage.value],
                                 "keys": {self.key_id(usage): self.public(usage)}}
        if usage is Usage.MASTER:
            return value
        return sign_json(value, self.user_id, self.signing_key(Usage.MASTER))

    def upload_body(self) -> dict[str, Any]:
        return {f"{usage.value}_key": self.key_object(usage) for usage in Usage}

    def is_published(self, published: dict[str, Any] | None, usage: Usage) -> bool:
        """Whether the server's key of this usage (from /keys/query) is ours."""
        keys = (published or {}).get("keys")
        return isinstance(keys, dict) and keys == {self.key_id(usage): self.public(usage)}

    def sign_device(self, device_keys: dict[str, Any]) -> dict[str, Any]:
        """The device's keys (as /keys/query shows them) signed by the self-signing key, for
        /keys/signatures/upload."""
        return sign_json(device_keys, self.user_id, self.signing_key(Usage.SELF_SIGNING))

    def signed_device(self, device_keys: dict[str, Any] | None) -> bool:
        """Whether the device's keys carry a valid signature of our self-signing key."""
        if not device_keys:
            return False
        public = self.public(Usage.SELF_SIGNING)
        verify_key = decode_verify_key_base64(ED25519, public, public)
        try:
            verify_signed_json(copy.deepcopy(device_keys), self.user_id, verify_key)
        except SignatureVerifyException:
            return False
        return True
