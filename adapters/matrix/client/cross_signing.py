"""Cross-signing the bot's device, on the client-server API (matrix-nio has none): at each
start the bot makes sure its account's cross-signing keys on the server are the ones it
keeps, and that its device carries their signature (protocol/signing.py says why).

The private keys live in a file of their own (`KeyFile`, mode 0600), apart from nio's device
store: a lost device store costs the device (a new one is made, and signed with the kept
keys: players' clients see the same identity), a lost key file costs the identity (new keys
replace the old on the server, and players' clients say that the bot's identity was reset).
Neither file is ever logged or sent anywhere but the public halves to the homeserver.

Uploading keys for the first time needs no password on Synapse (MSC3967); replacing keys
the server already holds does (user-interactive auth, `m.login.password`). A bot that logs
in with an access token alone cannot answer that: it says so in the log, once per start,
and keeps running unsigned until the host runs `nightfall matrix cross-sign` once (cli.py),
which asks for the password and does the same."""

from __future__ import annotations

import contextlib
import enum
import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

from nio import AsyncClient, ErrorResponse
from nio.api import Api

from ..protocol.errors import Failed
from ..protocol.signing import CrossSigningKeys, Usage

log = logging.getLogger(__name__)
HOWTO = ("run `nightfall matrix cross-sign` once (it asks for the bot's password), or set "
         "[matrix] password")


class Standing(enum.Enum):
    """Where the bot's cross-signing stands after `CrossSigning.ensure`."""

    SIGNED = "signed"  # published keys are ours, and the device is signed by them
    NEEDS_PASSWORD = "needs password"  # the server asks for a password the bot lacks
    NO_DEVICE_KEYS = "no device keys"  # the device has no keys on the server to sign
    FOREIGN_KEYS = "foreign keys"  # the key file is another account's


class KeyFile:
    """The private cross-signing keys on disk: JSON, readable by the bot alone, replaced
    atomically (a crash mid-write leaves the old file or the new, never half of one)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> CrossSigningKeys | None:
        try:
            mode = self.path.stat().st_mode
        except FileNotFoundError:
            return None
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            log.warning("matrix: %s was readable by others; now by the bot alone", self.path)
            os.chmod(self.path, 0o600)
        return CrossSigningKeys.from_json(json.loads(self.path.read_text()))

    def save(self, keys: CrossSigningKeys) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(keys.to_json(), f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, self.path)


def key_file_path(store_path: str | None, configured: str | None) -> Path | None:
    """The configured key file, or one beside the device store (`<store>.cross-signing.json`:
    the same disk, another file)."""
    if configured:
        return Path(configured)
    if not store_path:
        return None
    store = Path(store_path)
    return store.with_name(store.name + ".cross-signing.json")


class CrossSigning:
    """The account's keys on the server, and the device's signature, made right."""

    def __init__(self, client: AsyncClient, keys: KeyFile, password: str | None) -> None:
        self.client = client
        self.keys = keys
        self.password = password

    async def ensure(self) -> Standing:
        user_id, device_id = str(self.client.user_id), str(self.client.device_id)
        keys = self.keys.load()
        if keys is not None and keys.user_id != user_id:
            log.error("matrix: %s holds the cross-signing keys of %s, not of %s; the device "
                      "stays unsigned", self.keys.path, keys.user_id, user_id)
            return Standing.FOREIGN_KEYS
        if keys is None:
            keys = CrossSigningKeys.generate(user_id)
            self.keys.save(keys)  # before the upload: what the server gets is never lost
            log.info("matrix: new cross-signing keys in %s", self.keys.path)
        published = await self._query(user_id)
        master = _first(published, "master_keys", user_id)
        ours = keys.is_published(master, Usage.MASTER) and keys.is_published(
            _first(published, "self_signing_keys", user_id), Usage.SELF_SIGNING)
        if not ours and not await self._upload(keys, replacing=master is not None):
            return Standing.NEEDS_PASSWORD
        device = ((published.get("device_keys") or {}).get(user_id) or {}).get(device_id)
        if not isinstance(device, dict):
            log.warning("matrix: device %s has no keys on the server to cross-sign", device_id)
            return Standing.NO_DEVICE_KEYS
        if not keys.signed_device(device):
            await self._post(["keys", "signatures", "upload"],
                             {user_id: {device_id: keys.sign_device(device)}})
            log.info("matrix: device %s signed by the bot's self-signing key", device_id)
        return Standing.SIGNED

    async def _query(self, user_id: str) -> dict[str, Any]:
        return await self._post(["keys", "query"], {"device_keys": {user_id: []}})

    async def _upload(self, keys: CrossSigningKeys, replacing: bool) -> bool:
        """Publish the keys; the password answers the server's user-interactive auth."""
        body = keys.upload_body()
        status, reply = await self._request(["keys", "device_signing", "upload"], body)
        if status == 401 and self.password is not None and _offers_password(reply):
            body["auth"] = {"type": "m.login.password", "session": reply.get("session"),
                            "identifier": {"type": "m.id.user", "user": keys.user_id},
                            "password": self.password}
            status, reply = await self._request(["keys", "device_signing", "upload"], body)
        if status == 401:
            log.warning("matrix: the homeserver wants a password to %s the bot's cross-signing "
                        "keys; until then players who exclude unverified devices cannot read "
                        "the bot: %s", "replace" if replacing else "publish", HOWTO)
            return False
        if status >= 400:
            raise Failed(ErrorResponse.from_dict(reply))
        if replacing:
            log.warning("matrix: the account's cross-signing keys were replaced; players' "
                        "clients will say that the bot's identity was reset")
        log.info("matrix: cross-signing keys published, master key %s", keys.public(Usage.MASTER))
        return True

    async def _post(self, path: list[str], body: dict[str, Any]) -> dict[str, Any]:
        status, reply = await self._request(path, body)
        if status >= 400:
            raise Failed(ErrorResponse.from_dict(reply))
        failures = reply.get("failures")
        if failures:
            raise RuntimeError(f"matrix: {'/'.join(path)} failed: {failures}")
        return reply

    async def _request(self, path: list[str], body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"Bearer {self.client.access_token}",
                   "Content-Type": "application/json"}
        reply = await self.client.send("POST", Api._build_path(path), json.dumps(body), headers)
        try:
            data = await reply.json(content_type=None)
            return reply.status, data if isinstance(data, dict) else {}
        finally:
            reply.release()


def _first(published: dict[str, Any], kind: str, user_id: str) -> dict[str, Any] | None:
    found = (published.get(kind) or {}).get(user_id)
    return found if isinstance(found, dict) else None


def _offers_password(reply: dict[str, Any]) -> bool:
    flows = reply.get("flows")
    return isinstance(flows, list) and any(
        isinstance(f, dict) and f.get("stages") == ["m.login.password"] for f in flows)
