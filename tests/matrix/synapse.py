"""A throwaway Synapse homeserver for the Matrix tests: a temporary directory, a free port on
127.0.0.1, SQLite, no federation, relaxed rate limits (real ones would make every test crawl,
nio would sleep on each 429) and cheap password hashing; users registered by shared secret.

Synapse runs as `sys.executable -m synapse.app.homeserver`, in its own session (Ctrl-C
reaches pytest first) and with PR_SET_PDEATHSIG, so it dies with the test process even if
pytest is killed; `stop` terminates it and removes the directory.
"""

from __future__ import annotations

import atexit
import hashlib
import hmac
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any

FAST = {"per_second": 1000, "burst_count": 10000}
RATE_LIMITS = {
    "rc_message": FAST,
    "rc_registration": FAST,
    "rc_registration_token_validity": FAST,
    "rc_login": {"address": FAST, "account": FAST, "failed_attempts": FAST},
    "rc_joins": {"local": FAST, "remote": FAST},
    "rc_joins_per_room": FAST,
    "rc_invites": {"per_room": FAST, "per_user": FAST, "per_issuer": FAST},
    "rc_room_creation": FAST,
    "rc_3pid_validation": FAST,
    "rc_third_party_invite": FAST,
    "rc_media_create": FAST,
    "rc_profile": FAST,
    "rc_user_directory": FAST,
    "rc_reports": FAST,
    "rc_delayed_event_mgmt": FAST,
    "rc_presence": {"per_user": FAST},
    "rc_key_requests": FAST,
}


def _die_with_parent() -> None:
    """Linux: Synapse gets SIGTERM when the thread that started it (pytest's) dies."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Synapse:
    """One Synapse process in its own temporary directory."""

    def __init__(self, server_name: str = "localhost",
                 extra_config: dict[str, Any] | None = None) -> None:
        self.server_name = server_name
        self.extra_config = extra_config or {}
        self.dir = tempfile.mkdtemp(prefix="nightfall-synapse-")
        self.shared_secret = secrets.token_hex(16)
        self.port = 0
        self.url = ""
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = os.path.join(self.dir, "synapse.log")
        self._log: Any = None
        self.startup_seconds = 0.0

    def config(self) -> dict[str, Any]:
        d = self.dir
        return {
            "server_name": self.server_name,
            "public_baseurl": self.url + "/",
            "report_stats": False,
            "pid_file": os.path.join(d, "homeserver.pid"),
            "listeners": [{"port": self.port, "bind_addresses": ["127.0.0.1"], "type": "http",
                           "tls": False, "x_forwarded": False,
                           "resources": [{"names": ["client"], "compress": False}]}],
            "database": {"name": "sqlite3",
                         "args": {"database": os.path.join(d, "homeserver.db")}},
            "media_store_path": os.path.join(d, "media"),
            "signing_key_path": os.path.join(d, "signing.key"),
            "registration_shared_secret": self.shared_secret,
            "macaroon_secret_key": secrets.token_hex(16),
            "form_secret": secrets.token_hex(16),
            "enable_registration": False,
            "trusted_key_servers": [],
            "suppress_key_server_warning": True,
            "federation_domain_whitelist": [],
            "presence": {"enabled": False},
            "enable_metrics": False,
            "url_preview_enabled": False,
            "background_updates": {"sleep_enabled": False},
            "bcrypt_rounds": 4,
            **RATE_LIMITS,
            **self.extra_config,
        }

    def start(self, timeout: float = 60.0, attempts: int = 2) -> Synapse:
        """Start on a free port and wait for /versions; a port taken in the meantime (the
        free-port race) is retried once with another."""
        for attempt in range(attempts):
            try:
                self._start_once(timeout)
                return self
            except RuntimeError:
                if attempt == attempts - 1 or "Address already in use" not in self.log_tail():
                    raise
        return self

    def _start_once(self, timeout: float) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        path = os.path.join(self.dir, "homeserver.yaml")
        with open(path, "w") as f:
            json.dump(self.config(), f, indent=1)  # JSON is YAML
        started = time.monotonic()
        self._log = open(self.log_path, "ab")  # noqa: SIM115  (closed in stop)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "synapse.app.homeserver", "-c", path], cwd=self.dir,
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=_die_with_parent)
        atexit.register(self.stop)
        try:
            self._wait_ready(timeout)
        except BaseException:
            self._terminate()
            raise
        self.startup_seconds = time.monotonic() - started

    def _wait_ready(self, timeout: float) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Synapse exited with {self.proc.returncode}:\n"
                                   + self.log_tail())
            try:
                with urllib.request.urlopen(self.url + "/_matrix/client/versions",
                                            timeout=2) as reply:
                    if reply.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.05)
        raise RuntimeError(f"Synapse not ready after {timeout} s:\n" + self.log_tail())

    def log_tail(self, lines: int = 40) -> str:
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def _terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def stop(self) -> None:
        atexit.unregister(self.stop)
        self._terminate()
        shutil.rmtree(self.dir, ignore_errors=True)

    # ------------------------------------------------------------------ admin API
    def http(self, method: str, path: str, body: dict[str, Any] | None = None,
             token: str | None = None) -> dict[str, Any]:
        request = urllib.request.Request(self.url + path, method=method, data=None
                                         if body is None else json.dumps(body).encode())
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return dict(json.loads(reply.read() or b"{}"))
        except urllib.error.HTTPError as err:
            raise RuntimeError(f"{method} {path} -> {err.code}: {err.read().decode()}") from None

    def register(self, username: str, displayname: str | None = None, admin: bool = False,
                 password: str | None = None) -> dict[str, Any]:
        """A new user by the shared-secret admin API: user_id, access_token, device_id,
        password."""
        password = password or secrets.token_hex(8)
        path = "/_synapse/admin/v1/register"
        nonce = self.http("GET", path)["nonce"]
        mac = hmac.new(self.shared_secret.encode(), digestmod=hashlib.sha1)
        for part in (nonce, username, password):
            mac.update(part.encode() + b"\x00")
        mac.update(b"admin" if admin else b"notadmin")
        body: dict[str, Any] = {"nonce": nonce, "username": username, "password": password,
                                "admin": admin, "mac": mac.hexdigest()}
        if displayname:
            body["displayname"] = displayname
        user = self.http("POST", path, body)
        user["password"] = password
        return user
