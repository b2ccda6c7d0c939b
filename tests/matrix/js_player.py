"""Players that are matrix-js-sdk clients: the SDK under Element Web, with its Rust crypto,
one Node process per player (tests/matrix/js/player.mjs) spoken to in JSON lines.

The nio players of harness.py read the server's events; these read what a client shows: the
decrypted timeline with the SDK's decryption failure codes, polls through the SDK's poll
model counted as Element counts them, and whether each event notifies or highlights by the
SDK's push-rule processor. Each expectation goes through the SDK call a client makes for it
(named in player.mjs beside each operation).

Node and the npm packages are the project's to install (`ensure_node_modules`, run by the
`js_players` fixture: `npm ci` from the committed package-lock.json when node_modules is
missing). Without Node the tests are skipped, unless NIGHTFALL_REQUIRE_NODE=1 (CI's .ci/run
sets it): then they fail."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import fcntl
import itertools
import json
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nio import RoomInviteResponse

from tests.waiting import Patience

if TYPE_CHECKING:
    from .harness import Table

JS = Path(__file__).resolve().parent / "js"


class NodeMissing(RuntimeError):
    """No `node`/`npm` on this machine."""


def ensure_node_modules() -> None:
    """`npm ci` once (under a file lock: pytest's workers may all arrive at once) when the
    packages of package-lock.json are not installed yet."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise NodeMissing("node and npm are needed for the matrix-js-sdk players")
    with open(JS / ".npm-ci.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        installed = JS / "node_modules" / ".package-lock.json"
        if installed.exists() and \
                installed.stat().st_mtime >= (JS / "package-lock.json").stat().st_mtime:
            return
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                              cwd=JS, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise RuntimeError(f"npm ci failed:\n{done.stdout}\n{done.stderr}")


class Isolation(enum.Enum):
    """The SDK's device isolation modes (Element: Settings > Security > "exclude insecure
    devices" is `SIGNED`)."""

    ALL = "all"  # AllDevicesIsolationMode: every device of a member gets and gives keys
    SIGNED = "signed"  # OnlySignedDevicesIsolationMode: only devices their owner cross-signed


@dataclass(frozen=True)
class Shown:
    """One timeline event as the client holds it."""

    event_id: str
    sender: str
    type: str
    content: dict[str, Any]
    encrypted: bool
    decryption_failure: str | None  # a DecryptionFailureCode, e.g. UNSIGNED_SENDER_DEVICE
    sender_device: str | None
    notify: bool  # the push rules say this user is notified
    highlight: bool  # ... and the event is highlighted (a mention)
    sound: str | None
    relation: dict[str, Any] | None = None
    replaced_by: str | None = None
    ts: int = 0

    @property
    def body(self) -> str:
        return str(self.content.get("body", ""))


@dataclass(frozen=True)
class PollShown:
    """A poll through the SDK's poll model, with Element's count of it."""

    poll_id: str
    question: str
    kind: str
    max_selections: int
    answers: list[dict[str, str]]  # {"id", "text"}
    ended: bool
    end_event_id: str | None
    undecryptable: int
    counts: dict[str, int]  # answer id -> votes, as Element shows them
    votes: dict[str, list[str] | None] = field(default_factory=dict)  # None: spoiled

    def count_of(self, text: str) -> int:
        return self.counts[next(a["id"] for a in self.answers if a["text"] == text)]

    def answer_id(self, text: str) -> str:
        return next(a["id"] for a in self.answers if a["text"] == text)


@dataclass(frozen=True)
class DeviceTrust:
    known: bool
    signed_by_owner: bool  # DeviceVerificationStatus.signedByOwner
    cross_signing_verified: bool
    user_has_cross_signing_keys: bool
    user_verified: bool


class JsPlayer:
    """One matrix-js-sdk client in its own Node process."""

    def __init__(self, name: str, log_path: Path) -> None:
        self.name = name
        self.log_path = log_path
        self.user_id = ""
        self.device_id = ""
        self._proc: asyncio.subprocess.Process | None = None
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()

    async def open(self) -> JsPlayer:
        log = open(self.log_path, "ab")  # noqa: SIM115  (the child holds it; closed below)
        try:
            self._proc = await asyncio.create_subprocess_exec(
                "node", str(JS / "player.mjs"), cwd=JS, stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, stderr=log, limit=64 * 1024 * 1024)
        finally:
            log.close()
        return self

    def log_tail(self, lines: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "".join(self.log_path.read_text(errors="replace").splitlines(True)[-lines:])
        return ""

    async def call(self, op: str, timeout: float = 90.0, **args: Any) -> Any:
        """One operation of player.mjs; its error is raised here, with the log's tail."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        async with self._lock:
            request = {"id": next(self._ids), "op": op, **args}
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            await proc.stdin.drain()
            line = await asyncio.wait_for(proc.stdout.readline(), timeout)
        if not line:
            raise RuntimeError(f"{self.name}'s node exited:\n{self.log_tail()}")
        answer = json.loads(line)
        if not answer["ok"]:
            raise RuntimeError(f"{self.name} {op}: {answer['error']}\n{self.log_tail()}")
        return answer["result"]

    async def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.returncode is None:
            with contextlib.suppress(Exception):
                self._proc = proc
                await self.call("stop", timeout=10)
            self._proc = None
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                proc.kill()
                await proc.wait()

    # ------------------------------------------------------------------ what a client does
    async def login(self, base_url: str, user: dict[str, Any]) -> None:
        """A password login (a new device, as Element makes one), then the first sync."""
        localpart = str(user["user_id"]).split(":")[0].removeprefix("@")
        found = await self.call("login", base_url=base_url, user=localpart,
                                password=user["password"], device_name=f"{self.name}'s Element")
        self.user_id, self.device_id = found["user_id"], found["device_id"]

    async def bootstrap_cross_signing(self) -> None:
        found = await self.call("bootstrap_cross_signing")
        assert found["ready"], found

    async def isolation(self, mode: Isolation) -> None:
        await self.call("isolation", mode=mode.value)

    async def invites(self) -> list[dict[str, Any]]:
        return list(await self.call("invites"))

    async def join(self, room_id: str) -> None:
        await self.call("join", room_id=room_id)

    async def leave(self, room_id: str) -> None:
        await self.call("leave", room_id=room_id)

    async def say(self, room_id: str, text: str) -> str:
        return str(await self.call("send_text", room_id=room_id, text=text))

    async def send_event(self, room_id: str, kind: str, content: dict[str, Any]) -> str:
        return str(await self.call("send_event", room_id=room_id, type=kind, content=content))

    async def create_dm(self, user_id: str) -> str:
        """Element's "Start chat": `is_direct`, trusted private chat, encrypted."""
        return str(await self.call("create_dm", user_id=user_id))

    async def membership(self, room_id: str, user_id: str | None = None) -> str | None:
        found = await self.call("membership", room_id=room_id, user_id=user_id)
        return None if found is None else str(found)

    async def display_name(self, room_id: str, user_id: str) -> str | None:
        found = await self.call("display_name", room_id=room_id, user_id=user_id)
        return None if found is None else str(found)

    async def timeline(self, room_id: str) -> list[Shown]:
        return [Shown(**event) for event in await self.call("timeline", room_id=room_id)]

    async def from_sender(self, room_id: str, sender: str) -> list[Shown]:
        return [e for e in await self.timeline(room_id) if e.sender == sender]

    async def polls(self, room_id: str) -> list[PollShown]:
        return [PollShown(**poll) for poll in await self.call("polls", room_id=room_id)]

    async def vote(self, room_id: str, poll_id: str, *answer_ids: str) -> str:
        return str(await self.call("vote", room_id=room_id, poll_id=poll_id,
                                   answer_ids=list(answer_ids)))

    async def device_trust(self, user_id: str, device_id: str) -> DeviceTrust:
        return DeviceTrust(**await self.call("device_trust", user_id=user_id,
                                             device_id=device_id))

    async def shield(self, room_id: str, event_id: str) -> dict[str, Any] | None:
        found = await self.call("shield", room_id=room_id, event_id=event_id)
        return None if found is None else dict(found)

    async def until(self, what: str, look: Callable[[], Any], quiet: float = 30.0) -> Any:
        """Ask `look` (a coroutine function) until it returns something true, as a player
        waits for his client to show it; `quiet` seconds without a change fail."""
        patience = Patience(quiet=quiet)
        last: Any = None
        while patience.waiting():
            last = await look()
            if last:
                return last
            patience.moved(repr(last))
            await asyncio.sleep(0.1)
        raise TimeoutError(f"{self.name} never saw {what} ({patience.why()}); last: {last!r}")


async def seat(table: Table, player: JsPlayer) -> None:
    """The host invites a js-sdk player into the game room and he accepts, as he would in
    Element."""
    invited = await table.host.client.room_invite(table.room, player.user_id)
    assert isinstance(invited, RoomInviteResponse), invited

    async def offered() -> bool:
        return any(i["room_id"] == table.room for i in await player.invites())

    await player.until("the invite to the game room", offered)
    await player.join(table.room)
    await table.settle()


async def say(table: Table, player: JsPlayer, room_id: str, text: str) -> str:
    """The player writes; the table then waits (`settle`) until the bot has read it."""
    event_id = await player.say(room_id, text)
    table.sent.append(event_id)
    return event_id
