"""The Matrix crash suite: `nightfall run` serves a game room on the real Synapse of these
tests while it is killed with SIGKILL at random points and started again, as the players
(matrix-nio clients) answer polls, press keyboards in their private rooms, vote by command
and talk, and deadlines come due. Afterwards:
- no accepted command is lost and none is applied twice: every event a player sent was
  handed to the service exactly once (the sync token moves on only after a sync's events
  were applied; ProcessedUpdate holds each event id once);
- no deadline fired twice, and every fired one closed its window once;
- the game reached its end;
- nothing arrived twice: in every room, as the players' own clients read it from Synapse,
  no message of the bot is there twice (a row caught mid-send by a kill is sent again with
  a stable transaction id, its row's or its message's, which Synapse drops as a repeat).
The two narrowest moments a random kill rarely hits (posted, but the event id or the
buttons not kept yet) are held open in-process by the last two tests.

CI-sized: 20 kills (NIGHTFALL_MATRIX_CRASH_KILLS changes it) over one whole eight-player
game. A restart of the bot against Synapse (interpreter, login, first sync) costs 3 to 8
seconds on this 2-core machine, and dominates: 20 kills took the test to 210 s with the
machine loaded twelvefold by other work (the rest is the game itself, about 75 s there).
Fewer would leave some kind of moment unhit in a game of a dozen windows; spread over the
lobby, every day and night and the end, 20 land in each kind several times: right after
players sent something (the sync being handed over), right after a deadline came due (the
deadline firing), and just after the first message of a burst reached a player (the outbox
sending; the summary line says how many rows each kill caught mid-send). The test's choices
(who does what, when it kills) come from one seeded random generator:
NIGHTFALL_MATRIX_CRASH_SEED replays them (the bot's own deal is its own randomness)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nio import RoomCreateResponse, RoomPreset, RoomSendResponse

from adapters.matrix.protocol.incoming import KEYCAPS
from adapters.matrix.protocol.polls import answers as poll_answers
from adapters.matrix.store import MatrixStore
from core.storage.models import Outbox, ProcessedUpdate
from tests.bot_run import NIGHTFALL, UNLIMITED, free_port, wait_healthy, write_config
from tests.waiting import Patience

from . import harness
from .harness import NAMES, NOT_CHOSEN, Player, open_polls, options
from .synapse import Synapse

KILLS = int(os.environ.get("NIGHTFALL_MATRIX_CRASH_KILLS", "20"))
SEED = int(os.environ.get("NIGHTFALL_MATRIX_CRASH_SEED", "2026"))
PLAYERS = 8
# the chance of a kill at each point: after each of the (up to three) chunks of a round's
# actions; right after a deadline came due; and after the first message it brought arrived
SYNC_KILL, DEADLINE_KILL, SEND_KILL = 0.4, 0.9, 0.9
MAX_ROUNDS = 80


@dataclass
class CrashPlayer(Player):
    """A player whose message may be refused (he was muted a moment ago): not counted. What
    each sent event was is noted, for the failure message."""

    notes: dict[str, str] = field(default_factory=dict)

    async def send(self, room_id: str, kind: str, content: dict[str, Any]) -> str:
        response = await self.client.room_send(room_id, kind, content)
        if not isinstance(response, RoomSendResponse):
            return ""
        self.sent.append(response.event_id)
        self.notes[response.event_id] = f"{self.name} in {room_id}: {kind} {content}"
        return str(response.event_id)


def query(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Read (or write) the bot's database as another process would, meanwhile."""
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as conn, conn:
        return conn.execute(sql, args).fetchall()


@dataclass
class Bot:
    """The `nightfall run` process, killed and started again."""

    config: Path
    db: Path
    token: str
    port: int
    log: Path
    process: asyncio.subprocess.Process | None = None
    kills: Counter[str] = field(default_factory=Counter)
    restart_seconds: list[float] = field(default_factory=list)
    caught: Counter[str] = field(default_factory=Counter)  # what a kill interrupted

    async def start(self) -> None:
        started = time.monotonic()
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                str(NIGHTFALL), "run", "--config", str(self.config),
                env={**os.environ, "NIGHTFALL_MATRIX__ACCESS_TOKEN": self.token},
                stdout=asyncio.subprocess.DEVNULL, stderr=log)
        await wait_healthy(f"http://127.0.0.1:{self.port}/healthz", process=self.process)
        self.restart_seconds.append(time.monotonic() - started)

    async def kill(self, where: str) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        self.kills[where] += 1
        self.caught["rows sending"] += query(
            self.db, "SELECT count(*) FROM outbox WHERE status = 'sending'")[0][0]
        self.caught["deadlines due"] += query(
            self.db, "SELECT count(*) FROM deadline WHERE state = 'pending' AND due_at = 0")[0][0]
        await self.start()

    async def stop(self) -> int | None:
        if self.process is None or self.process.returncode is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(self.process.wait(), timeout=60)
        return self.process.returncode


@dataclass
class Room:
    """The game room, its players and the bot, seen from outside the bot's process."""

    synapse: Synapse
    db: Path
    bot: Bot
    bot_id: str
    room: str
    players: dict[str, CrashPlayer]
    sent: list[str]
    rng: random.Random
    done: set[tuple[str, str]] = field(default_factory=set)
    talk: int = 0

    @property
    def host(self) -> CrashPlayer:
        return next(iter(self.players.values()))

    async def read(self) -> int:
        """Every player reads what is new (accepting the bot's invites); returns how many
        new events from the bot they saw."""
        before = self.bot_events()
        for _ in range(5):
            if not sum(await asyncio.gather(*(p.sync() for p in self.players.values()))):
                break
        return self.bot_events() - before

    def bot_events(self) -> int:
        return sum(len(p.from_bot(room)) for p in self.players.values() for room in p.rooms)

    async def settle(self, timeout: float = 90.0) -> None:
        """Until the bot has applied every event the players sent, delivered its outbox,
        and the players have read it all; `timeout` seconds without progress fail."""
        patience = Patience(quiet=timeout)
        while patience.waiting():
            applied = {row[0] for row in query(self.db, "SELECT update_id FROM processed_update")}
            busy, sent = query(self.db, "SELECT count(*) FILTER (WHERE status IN "
                               "('pending', 'sending')), count(*) FILTER (WHERE status = 'sent') "
                               "FROM outbox")[0]
            patience.moved((len(applied), busy, sent))
            if set(self.sent) <= applied and not busy:
                await self.read()
                if not await self.read():
                    return
                patience.moved(object())
            await asyncio.sleep(0.1)
        notes = {k: v for p in self.players.values() for k, v in p.notes.items()}
        raise TimeoutError(f"the bot never caught up ({patience.why()}): {busy} rows to send, "
                           "not applied: " + "; ".join(notes[e] for e in set(self.sent) - applied))

    def status(self) -> str | None:
        rows = query(self.db, "SELECT status FROM game ORDER BY id DESC LIMIT 1")
        return rows[0][0] if rows else None

    def living(self) -> set[str]:
        rows = query(self.db, "SELECT snapshot FROM game ORDER BY id DESC LIMIT 1")
        snapshot = json.loads(rows[0][0]) if rows and rows[0][0] else {}
        return {p["name"] for _, p in snapshot.get("players") or () if p.get("alive")}

    def due_now(self) -> None:
        """The clock jumps: every pending deadline is due."""
        query(self.db, "UPDATE deadline SET due_at = 0 WHERE state = 'pending'")

    def actions(self) -> list[Any]:
        """What each living player does now, as coroutine factories: answer the open ballot
        (a poll answer, either event type, or `!vote NAME`), press the newest private
        keyboard (a number, a keycap reaction or the label), now and then talk."""
        rng, alive, found = self.rng, self.living(), []
        ballot = open_polls(self)  # the host's view of the group room
        for name, player in self.players.items():
            if name not in alive:
                continue
            if ballot and (ballot[0]["event_id"], name) not in self.done:
                self.done.add((ballot[0]["event_id"], name))
                answers = [(poll["event_id"], aid, label) for poll in ballot
                           for aid, label in poll_answers(poll["content"])
                           if label not in NOT_CHOSEN and label != name]
                if answers:
                    poll_id, aid, label = rng.choice(answers)
                    if rng.random() < 0.3:
                        found.append(lambda p=player, t=f"!vote {label}": p.say(self.room, t))
                    else:
                        stable = rng.random() < 0.5
                        found.append(lambda p=player, e=poll_id, a=aid, s=stable:
                                     p.answer(self.room, e, a, stable=s))
            prompt, shown = newest_prompt(player)
            if prompt is not None and (prompt, name) not in self.done:
                self.done.add((prompt, name))
                choices = [(n, label) for n, label in shown
                           if label not in NOT_CHOSEN and label != name]
                if choices and player.dm is not None:
                    number, label = rng.choice(choices)
                    how = rng.choice(("number", "reaction", "label"))
                    if how == "reaction" and number <= len(KEYCAPS):
                        found.append(lambda p=player, e=prompt, k=KEYCAPS[number - 1]:
                                     p.react(p.dm, e, k))
                    else:
                        found.append(lambda p=player, t=label if how == "label" else str(number):
                                     p.say(p.dm, t))
            if rng.random() < 0.15:
                self.talk += 1
                found.append(lambda p=player, t=f"{name} thinks aloud ({self.talk})":
                             p.say(self.room, t))
        rng.shuffle(found)
        return found


def newest_prompt(player: Player) -> tuple[str | None, list[tuple[int, str]]]:
    """The newest keyboard in the player's private room that is still open, and the options
    its latest version shows. A person answers each new prompt once; the edits that follow
    (the pick, the closing) are the same prompt, and a client reacts to the original."""
    events = player.from_bot(player.dm)
    for event in reversed(events):
        body = event.get("content") or {}
        if (body.get("m.relates_to") or {}).get("rel_type") == "m.replace" or \
                not options(event):
            continue
        edits = [e for e in events if ((e.get("content") or {}).get("m.relates_to") or {})
                 .get("event_id") == event["event_id"] and "m.new_content" in e["content"]]
        latest = edits[-1] if edits else event
        return (event["event_id"], options(latest)) if options(latest) else (None, [])
    return None, []


async def maybe_kill(room: Room, where: str, chance: float) -> None:
    if room.bot.kills.total() < KILLS and room.rng.random() < chance:
        await room.bot.kill(where)


async def step(room: Room, commands: list[Any]) -> None:
    """One chunk of the players' doing, then perhaps a kill while the bot reads it."""
    for send in commands:
        await send()
    if commands:
        await asyncio.sleep(room.rng.uniform(0.0, 0.3))
        await maybe_kill(room, "sync", SYNC_KILL)


async def deadline(room: Room) -> None:
    """The clock jumps; perhaps a kill while the deadline fires, or while the bot sends what
    it brought (just after a player saw the first of it). Half of the time the players act
    at once on what they have seen of it, as people do, while the rest is still being sent:
    a newer version of a message (a tally) may then wait behind one a kill caught, and a
    press may come for a keyboard the bot has posted but not yet kept."""
    room.due_now()
    await asyncio.sleep(room.rng.uniform(0.0, 0.3))
    await maybe_kill(room, "deadline", DEADLINE_KILL)
    # how long the first message may take to come: 3 s here when idle, longer on a loaded
    # machine, on which a restart (the fastest one so far) is slower too
    window = max(3.0, min(room.bot.restart_seconds))
    for _ in range(2):  # the burst, and what the next process sends of it after a kill
        waited = time.monotonic() + window
        while time.monotonic() < waited and not await room.read():
            await asyncio.sleep(0.02)
        if time.monotonic() >= waited:
            return
        if room.rng.random() < 0.5:
            await asyncio.gather(*(send() for send in room.actions()))
        await asyncio.sleep(room.rng.uniform(0.0, 0.1))
        await maybe_kill(room, "send", SEND_KILL)


async def open_room(synapse: Synapse, register: Any, clients: Any, tmp_path: Path,
                    rng: random.Random) -> Room:
    """The bot's account and eight players; the host makes the game room (the bot with power
    to mute) and invites everyone; `nightfall run` is configured and started."""
    bot_user = register("nightfall", "Nightfall")
    sent: list[str] = []
    players, notes = {}, {}
    for name in NAMES[:PLAYERS]:
        user = register(name)
        players[name] = CrashPlayer(name, user["user_id"], await clients(user), bot_user["user_id"],
                                    sent, notes=notes)
    host = next(iter(players.values()))
    created = await host.client.room_create(
        name="Crash night", preset=RoomPreset.private_chat,
        invite=[bot_user["user_id"], *(p.user_id for p in players.values() if p is not host)],
        power_level_override={"users": {bot_user["user_id"]: 100}})
    assert isinstance(created, RoomCreateResponse), created
    for player in players.values():
        if player is not host:
            await player.client.join(created.room_id)
    db = tmp_path / "crash.sqlite3"
    port = free_port()
    config = write_config(tmp_path / "nightfall.toml", database=f"sqlite://{db}", port=port,
                          matrix={"homeserver": synapse.url, "user_id": bot_user["user_id"],
                                  "device_id": bot_user["device_id"],
                                  "store_path": str(tmp_path / "bot-store"),
                                  "allow": [f":{synapse.server_name}"], "rates": UNLIMITED})
    bot = Bot(config, db, bot_user["access_token"], port, tmp_path / "bot.log")
    await bot.start()
    room = Room(synapse, db, bot, bot_user["user_id"], created.room_id, players, sent, rng)
    joined = time.monotonic() + 30
    while time.monotonic() < joined:  # the bot accepted the invite (its first sync)
        members = await host.client.joined_members(created.room_id)
        if bot_user["user_id"] in {m.user_id for m in getattr(members, "members", [])}:
            break
        await asyncio.sleep(0.1)
    await room.settle()
    return room


async def test_sigkill_at_random_points_loses_nothing_and_repeats_nothing(
        synapse, register, clients, tmp_path):
    rng = random.Random(SEED)
    started = time.monotonic()
    room = await open_room(synapse, register, clients, tmp_path, rng)
    names = list(room.players)
    script = [[lambda: room.host.say(room.room, "!newgame changelings")],
              [lambda n=n: room.players[n].say(room.room, "!join") for n in names[1:5]],
              [lambda n=n: room.players[n].say(room.room, "!join") for n in names[5:]],
              [lambda: room.host.say(room.room, "!option random_lovers false"),
               lambda: room.host.say(room.room, "!startgame")]]
    try:
        for chunk in script:  # the lobby, each step perhaps killed
            await step(room, chunk)
            await room.settle()
        for _ in range(MAX_ROUNDS):
            await room.settle()
            if room.status() != "running":
                break
            commands = room.actions()
            if not commands:
                await deadline(room)
                continue
            cut = sorted(rng.sample(range(1, len(commands)), min(2, len(commands) - 1))) \
                if len(commands) > 1 else []
            for chunk in (commands[a:b] for a, b in zip([0, *cut], [*cut, len(commands)],
                                                          strict=True)):
                await step(room, chunk)
        await room.settle()
    finally:
        code = await room.bot.stop()
    elapsed = time.monotonic() - started
    print(f"\nmatrix crash suite: seed {SEED}, {room.bot.kills.total()} kills "
          f"({dict(room.bot.kills)}; they caught {dict(room.bot.caught)}), "
          f"{len(room.sent)} player events, restarts "
          f"{min(room.bot.restart_seconds):.1f}-{max(room.bot.restart_seconds):.1f} s, "
          f"{elapsed:.0f} s in all")
    assert code == 0
    assert room.status() == "ended"

    db = room.db
    applied = [row[0] for row in query(db, "SELECT update_id FROM processed_update "
                                           "WHERE platform = 'matrix'")]
    events = [u for u in applied if u.startswith("$")]
    assert sorted(events) == sorted(room.sent)  # each one applied, once; none lost
    fired = query(db, "SELECT game_id, window FROM deadline WHERE state = 'fired'")
    assert max(Counter(fired).values(), default=1) == 1
    closes = [c for (c,) in query(db, "SELECT command FROM log_entry")
              if json.loads(c)["type"] == "Close"]
    assert len(closes) == len(fired)
    outbox = Counter(s for (s,) in query(db, "SELECT status FROM outbox"))
    assert outbox["pending"] == outbox["sending"] == outbox["unknown"] == 0

    (tmp_path / "timelines.json").write_text(json.dumps(  # for a failure's post-mortem
        {p.name: p.rooms for p in room.players.values()}, indent=1), encoding="utf-8")
    for player in room.players.values():
        # when the player himself spoke: the same refusal twice answers two of his commands
        # (a vote against his lover on two days, nothing said to him between) — a repeat
        # only if he sent nothing between the two
        spoke = sorted(e["origin_server_ts"] for events in player.rooms.values() for e in events
                       if e.get("sender") == player.user_id and e.get("event_id") in room.sent)
        for room_id in player.rooms:
            mine = player.from_bot(room_id)
            assert len({e["event_id"] for e in mine}) == len(mine)
            # (a state event's key says whom it is about: two members removed one after the
            # other are two events of the same content, not one event repeated)
            shown = [(json.dumps([e["type"], e.get("state_key"), e.get("content")],
                                 sort_keys=True), e["origin_server_ts"]) for e in mine]
            twice = [a for (a, t1), (b, t2) in itertools.pairwise(shown)  # a repeat comes next
                     if a == b and not any(t1 <= t <= t2 for t in spoke)]
            assert not twice, (player.name, room_id, twice)
    # the kills are drawn along a game whose length is the bot's own deal: a short game
    # leaves fewer chances, but every kind of moment must have been hit, and most of them
    assert set(room.bot.kills) == {"sync", "deadline", "send"}, dict(room.bot.kills)
    assert room.bot.kills.total() >= min(KILLS, 10)


async def test_a_message_caught_by_a_kill_before_its_id_was_kept_is_edited_not_posted_again(
        synapse, register, clients, tmp_path, monkeypatch):
    """The narrow moment a random kill rarely hits, held open: the sign-up message is posted
    but the bot stops dead before it keeps the event's id (the row stays "sending"); the
    players join meanwhile, so when the bot is back a newer version of the message waits and
    supersedes the caught row. That version must edit the posted message: posted under a
    transaction id of its own, it would stand in the room twice."""
    table = await harness.open_table(synapse, register, clients,
                                     f"sqlite://{tmp_path / 'mx.db'}", 4)
    original, frozen = MatrixStore.save, asyncio.Event()

    async def dies_before_keeping_the_id(store: MatrixStore, value: Any, kind: str,
                                         *parts: str) -> None:
        if kind == "ref" and not frozen.is_set():
            frozen.set()
            await asyncio.Event().wait()  # never: the process is as good as dead here
        await original(store, value, kind, *parts)

    try:
        monkeypatch.setattr(MatrixStore, "save", dies_before_keeping_the_id)
        await table.host.say(table.room, "!newgame changelings")
        await asyncio.wait_for(frozen.wait(), 30)
        for player in list(table.players.values())[1:]:
            await player.say(table.room, "!join")
        waited = time.monotonic() + 30  # the joins are applied; their versions wait
        while not all(table.adapter.has_seen(e) for e in table.sent):
            assert time.monotonic() < waited
            await asyncio.sleep(0.05)
        assert await Outbox.filter(status="sending").count() == 1
        await table.stop()
        monkeypatch.setattr(MatrixStore, "save", original)
        await table.start()
        await table.settle()
        signups = [e for e in table.host.from_bot(table.room) if any(
            label == "Join" for _, label in options(e)) and "m.new_content" not in e["content"]]
        assert len(signups) == 1  # one sign-up message, edited in place
        assert "Dot" in harness.event_texts(harness.signup_message(table))[-1]
    finally:
        await table.stop()


async def test_a_press_on_a_keyboard_caught_by_a_kill_before_it_was_kept_counts(
        synapse, register, clients, tmp_path, monkeypatch):
    """The same moment for what a message's options press: the sign-up message is posted,
    the bot stops dead before it keeps its buttons under the event id, and a player presses
    Join with a keycap on it meanwhile. The press counts (the buttons were kept under the
    transaction id before the post, and the event shows the bot its transaction id)."""
    table = await harness.open_table(synapse, register, clients,
                                     f"sqlite://{tmp_path / 'mx.db'}", 3)
    original, frozen = MatrixStore.save, asyncio.Event()

    async def dies_before_keeping_the_buttons(store: MatrixStore, value: Any, kind: str,
                                              *parts: str) -> None:
        if kind == "kb" and not parts[0].startswith("txn-") and not frozen.is_set():
            frozen.set()
            await asyncio.Event().wait()  # never: the process is as good as dead here
        await original(store, value, kind, *parts)

    try:
        monkeypatch.setattr(MatrixStore, "save", dies_before_keeping_the_buttons)
        await table.host.say(table.room, "!newgame changelings")
        await asyncio.wait_for(frozen.wait(), 30)
        bob = table.players["Bob"]
        waited = time.monotonic() + 30
        while not any(options(e) for e in bob.from_bot(table.room)):
            assert time.monotonic() < waited
            await bob.sync()
        signup = next(e for e in bob.from_bot(table.room) if options(e))
        join = next(n for n, label in options(signup) if label == "Join")
        pressed = await bob.react(table.room, signup["event_id"], KEYCAPS[join - 1])
        waited = time.monotonic() + 30
        while not table.adapter.has_seen(pressed):
            assert time.monotonic() < waited
            await asyncio.sleep(0.05)
        await table.stop()
        monkeypatch.setattr(MatrixStore, "save", original)
        await table.start()
        await table.settle()
        assert await ProcessedUpdate.filter(update_id=pressed).exists()
        assert "Bob" in harness.event_texts(harness.signup_message(table))[-1]
    finally:
        await table.stop()
