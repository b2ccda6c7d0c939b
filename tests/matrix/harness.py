"""A table of real Matrix users around the real bot: the runtime with the Matrix adapter
(matrix-nio) against a real Synapse, player clients (matrix-nio too) that read their rooms
by sync, and a driver that plays whole games the way people would: poll answers in the
group, numbers, keycap reactions and option labels in their private rooms, `!` commands.

The bot always runs with a key store (encryption on), as deployed; players get one, and the
group room encryption, where a test asks for it."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nio import (
    AsyncClient,
    AsyncClientConfig,
    RoomCreateResponse,
    RoomPreset,
    RoomSendResponse,
    SyncResponse,
)

from adapters.matrix.adapter import MatrixAdapter
from adapters.matrix.client.crypto import Crypto
from adapters.matrix.client.sync import raw
from adapters.matrix.protocol import polls
from adapters.matrix.protocol.incoming import KEYCAPS
from adapters.matrix.protocol.polls import answers as poll_answers
from adapters.matrix.protocol.polls import response as poll_response
from adapters.matrix.settings import MatrixSettings
from adapters.matrix.store import MatrixStore
from core.engine.registry import load_ruleset
from core.service import (
    AdapterStore,
    CatchUp,
    ChatEvent,
    Handler,
    Incoming,
    Membership,
    Notice,
    RateLimits,
)
from core.service.games.deadline_times import GameDefaults
from core.service.messages import texts as service_texts
from core.service.runtime import Runtime
from core.storage.models import GameRecord, Outbox
from tests.play import play_until_over
from tests.telegram.harness import OffsetClock
from tests.waiting import Patience

from .synapse import Synapse

NAMES = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou",
         "Max", "Ned", "Oli", "Pia", "Quin", "Rob", "Sue", "Tom", "Uma", "Vic", "Wes")
PLAYER_FILTER = {"room": {"timeline": {"limit": 1000}}, "presence": {"not_types": ["*"]}}
OPTION = re.compile(r"^(?:(\d+)\ufe0f?\u20e3|(\U0001f51f)|(\d+)\.)\s+(.+)$")
NOT_CHOSEN = ("Withdraw my vote", "Pass", "My vote is early")
# the vote prompt as the bot writes it here (its commands start with "!"), in either voice
VOTE_PROMPTS = tuple(text.replace("/vote", "!vote") for text in (
    service_texts.VOTE_PROMPT,
    *(v for r in ("changelings", "alchemists") for v in load_ruleset(r).voice["VOTE_PROMPT"])))
MEGOLM = {"type": "m.room.encryption", "state_key": "",
          "content": {"algorithm": "m.megolm.v1.aes-sha2"}}  # as Element starts private rooms


def player_client(url: str, user: dict[str, Any], store: Path | None = None) -> AsyncClient:
    """A player's client; with a `store` directory it encrypts and decrypts (its keys are
    uploaded by the `clients` fixture)."""
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
    client = AsyncClient(url, user["user_id"], store_path=str(store or ""),
                         config=AsyncClientConfig(max_limit_exceeded=0, max_timeouts=2,
                                                  store_sync_tokens=False,
                                                  encryption_enabled=store is not None))
    client.restore_login(user["user_id"], user["device_id"], user["access_token"])
    return client


class RecordingAdapter(MatrixAdapter):
    """The adapter, noting every update it hands to the service (a restart must neither
    repeat nor lose one)."""

    def __init__(self, settings: MatrixSettings, handed: list[str]) -> None:
        super().__init__(settings)
        self.handed = handed

    async def start(self, handle: Handler, store: AdapterStore, catch_up: CatchUp) -> None:
        async def recorded(incoming: Incoming | ChatEvent | Membership) -> Notice | None:
            if isinstance(incoming, Incoming):
                self.handed.append(incoming.update_id)
            return await handle(incoming)

        await super().start(recorded, store, catch_up)


@dataclass
class Player:
    name: str
    user_id: str
    client: AsyncClient
    bot_id: str
    sent: list[str]
    since: str | None = None
    rooms: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    dm: str | None = None
    accepts: bool = True  # joins the rooms the bot invites him to (as no client does alone)

    async def sync(self) -> int:
        """Read what is new; accept the bot's invites (its private room). Returns how many
        rooms were joined (their history comes with the next sync)."""
        response = await self.client.sync(timeout=0, since=self.since,
                                          sync_filter=PLAYER_FILTER)
        assert isinstance(response, SyncResponse), response
        joined = 0
        for room_id, invite in response.rooms.invite.items():
            mine = next((raw(e) for e in invite.invite_state
                         if raw(e).get("state_key") == self.user_id), None)
            if mine is None or mine.get("sender") != self.bot_id or not self.accepts:
                continue
            await self.client.join(room_id)
            joined += 1
            if (mine.get("content") or {}).get("is_direct"):
                self.dm = room_id
        for room_id, info in response.rooms.join.items():
            self.rooms.setdefault(room_id, []).extend(
                e.source for e in info.timeline.events if isinstance(e.source, dict))
        self.since = response.next_batch
        if self.client.olm:
            await Crypto(self.client).after_sync()
        return joined

    async def send(self, room_id: str, kind: str, content: dict[str, Any]) -> str:
        if self.client.olm:
            await Crypto(self.client).before_send(room_id)
        response = await self.client.room_send(room_id, kind, content,
                                               ignore_unverified_devices=True)
        assert isinstance(response, RoomSendResponse), response
        self.sent.append(response.event_id)
        return str(response.event_id)

    async def say(self, room_id: str, text: str) -> str:
        return await self.send(room_id, "m.room.message", {"msgtype": "m.text", "body": text})

    async def react(self, room_id: str, event_id: str, key: str) -> str:
        return await self.send(room_id, "m.reaction", {"m.relates_to": {
            "rel_type": "m.annotation", "event_id": event_id, "key": key}})

    async def answer(self, room_id: str, poll_id: str, answer_id: str,
                     stable: bool = True) -> str:
        kind = polls.STABLE_RESPONSE if stable else polls.RESPONSE
        return await self.send(room_id, kind, poll_response(poll_id, answer_id, stable))

    def from_bot(self, room_id: str | None) -> list[dict[str, Any]]:
        return [e for e in self.rooms.get(room_id or "", []) if e.get("sender") == self.bot_id]


@dataclass
class Table:
    synapse: Synapse
    runtime: Runtime
    adapter: MatrixAdapter
    clock: OffsetClock
    room: str
    players: dict[str, Player]
    bot: dict[str, Any]
    db_url: str
    sent: list[str]
    handed: list[str]
    settings: MatrixSettings
    done: set[tuple[str, str]] = field(default_factory=set)
    earlier: list[MatrixAdapter] = field(default_factory=list)  # adapters before a restart

    @property
    def host(self) -> Player:
        return next(iter(self.players.values()))

    @property
    def kept(self) -> MatrixStore:
        """What the running bot keeps in the game database (adapters/matrix/store.py)."""
        assert self.adapter.parts is not None
        return self.adapter.parts.store

    def group(self) -> list[dict[str, Any]]:
        """The group room's events as the host's client has read them."""
        return self.host.rooms.get(self.room, [])

    def group_texts(self) -> list[str]:
        """Every text the bot showed in the group, each version of an edit included."""
        return [text for e in self.host.from_bot(self.room) for text in event_texts(e)]

    async def settle(self, timeout: float = 30.0) -> None:
        """Wait until the bot has read everything the players sent, delivered its whole
        outbox, and the players have read what it sent (their private rooms included);
        `timeout` seconds without any progress fail, however long the whole takes."""
        patience = Patience(quiet=timeout)
        while patience.waiting():
            readers = [self.adapter, *self.earlier]
            seen = sum(any(a.has_seen(e) for a in readers) for e in self.sent)
            waiting = await Outbox.filter(status__in=["pending", "sending"]).count()
            patience.moved((seen, waiting, await Outbox.filter(status="sent").count()))
            if seen < len(self.sent) or waiting:
                self.runtime.wake.set()
                await asyncio.sleep(0.02)
                continue
            joined = 0
            for player in self.players.values():
                joined += await player.sync()
            if joined:
                patience.moved(object())
                continue
            if not await Outbox.filter(status__in=["pending", "sending"]).exists():
                return
        raise TimeoutError(f"the table never settled: {patience.why()}")

    async def let_time_pass(self, seconds: float) -> None:
        self.clock.advance(seconds)
        assert self.runtime.service is not None
        await self.runtime.service.fire_due_deadlines()
        self.runtime.wake.set()
        await self.settle()

    async def stop(self) -> None:
        await self.runtime.stop()

    async def start(self, **changes: Any) -> None:
        """A new bot (runtime and adapter) on the same database, the same account."""
        self.earlier.append(self.adapter)
        settings = MatrixSettings(**{**self.settings.__dict__, **changes})
        self.adapter = RecordingAdapter(settings, self.handed)
        self.runtime = Runtime(self.db_url, [self.adapter], clock=self.clock, seed=None,
                               tick=0.05)
        try:
            await self.runtime.start()
        except BaseException:
            await self.runtime.stop()
            raise

    async def game_row(self) -> GameRecord | None:
        return await GameRecord.all().order_by("-id").first()


def event_texts(event: dict[str, Any]) -> list[str]:
    body = event.get("content") or {}
    found = []
    if isinstance(body.get("body"), str):
        found.append(body["body"])
    new = body.get("m.new_content")
    if isinstance(new, dict) and isinstance(new.get("body"), str):
        found.append(new["body"])
    return found


async def open_table(synapse: Synapse, register: Any, clients: Any, db_url: str, count: int,
                     seed: int = 5, allow: tuple[str, ...] | None = None,
                     host_only: bool = False, limits: RateLimits | None = None,
                     encrypted: bool = False, bot_level: int = 100,
                     homeserver: str | None = None, defaults: GameDefaults | None = None,
                     creators: tuple[str, ...] = (),
                     **settings: Any) -> Table:
    """A fresh bot and `count` players; the first creates the game room (giving the bot
    power to mute, or `bot_level`), invites the bot and the others, who join; then the bot
    starts. The bot accepts invites from its own server, or only from the host
    (`host_only`), or as `allow` says. The bot's key
    store lies beside the database file; `encrypted` gives the players key stores too and
    makes the game room an encrypted one. The bot may reach Synapse through another address
    (`homeserver`: a proxy's), the players always directly. `defaults`: the service's
    (a shorter grace time for a player who left the room, say). The room has Synapse's
    default version (12): its creator, the host, and the players named in `creators` (its
    `additional_creators`) have unlimited power."""
    folder = Path(db_url.removeprefix("sqlite://")).parent
    settings.setdefault("store_path", str(folder / "bot-store"))
    bot = register("nightfall", "Nightfall")
    sent: list[str] = []
    players: dict[str, Player] = {}
    for name in NAMES[:count]:
        user = register(name)
        store = folder / "player-stores" / name if encrypted else None
        players[name] = Player(name, user["user_id"], await clients(user, store),
                               bot["user_id"], sent)
    host = next(iter(players.values()))
    invite = [bot["user_id"], *(p.user_id for p in players.values() if p is not host)]
    if creators:  # nio's room_create takes no creation_content
        room = synapse.http("POST", "/_matrix/client/v3/createRoom", {
            "name": "Game night", "preset": "private_chat", "invite": invite,
            "power_level_content_override": {"users": {bot["user_id"]: bot_level}},
            "initial_state": [MEGOLM] if encrypted else [],
            "creation_content": {"additional_creators": [players[n].user_id
                                                         for n in creators]}},
            token=host.client.access_token)["room_id"]
    else:
        created = await host.client.room_create(
            name="Game night", preset=RoomPreset.private_chat, invite=invite,
            power_level_override={"users": {bot["user_id"]: bot_level}},
            initial_state=[MEGOLM] if encrypted else ())
        assert isinstance(created, RoomCreateResponse), created
        room = created.room_id
    if host_only:
        allow = (host.user_id,)
    elif allow is None:  # the bot's own server, as a host would configure it
        allow = (":" + synapse.server_name,)
    for player in players.values():
        if player is not host:
            await player.client.join(room)
    matrix = MatrixSettings(homeserver=homeserver or synapse.url, user_id=bot["user_id"],
                            access_token=bot["access_token"], device_id=bot["device_id"],
                            allow=allow, sync_timeout=5.0, limits=limits or RateLimits(),
                            **settings)
    handed: list[str] = []
    adapter = RecordingAdapter(matrix, handed)
    clock = OffsetClock()
    runtime = Runtime(db_url, [adapter], clock=clock, seed=seed, tick=0.05, defaults=defaults)
    try:
        await runtime.start()
    except BaseException:
        await runtime.stop()
        raise
    table = Table(synapse, runtime, adapter, clock, room, players, bot, db_url, sent, handed,
                  matrix)
    await table.settle()
    return table


def options(event: dict[str, Any]) -> list[tuple[int, str]]:
    """The numbered options at the end of a bot message: (number, label)."""
    texts = event_texts(event)
    if not texts:
        return []
    block = texts[-1].rsplit("\n\n", 1)[-1].split("\n")
    found = []
    for line in block:
        match = OPTION.match(line)
        if match is None:
            return []
        number = int(match.group(1) or match.group(3) or 10)
        found.append((number, match.group(4)))
    return found


def is_vote_prompt(body: str) -> bool:
    """The text beside a ballot's polls (whose tally follows the prompt)."""
    return body.startswith(VOTE_PROMPTS)


def signup_message(table: Table) -> dict[str, Any]:
    return next(e for e in reversed(table.host.from_bot(table.room))
                if any(label == "Join" for _, label in options(e)))


async def sign_up(table: Table, ruleset: str, *commands: str, start: bool = True) -> None:
    """The host opens sign-up; the others join, half by a keycap reaction on the sign-up
    message, half by `!join`; the host applies the settings and starts the game (unless not
    to `start` it yet)."""
    host = table.host
    await host.say(table.room, f"!newgame {ruleset}")
    await table.settle()
    signup = signup_message(table)
    join = next(n for n, label in options(signup) if label == "Join")
    for number, player in enumerate(list(table.players.values())[1:]):
        if number % 2:
            await player.say(table.room, "!join")
        else:
            await player.react(table.room, signup["event_id"], KEYCAPS[join - 1])
    await table.settle()
    for command in commands:
        await host.say(table.room, command)
    if start:
        await host.say(table.room, "!startgame")
    await table.settle()


async def living(table: Table) -> dict[str, str]:
    row = await table.game_row()
    assert row is not None and table.runtime.service is not None
    game = await table.runtime.service.games.load(row)
    return {p.name: p.pid for p in game.state.players.values() if p.alive}


def open_polls(table: Table) -> list[dict[str, Any]]:
    """The group's polls from the bot that have not been ended (one ballot's: more than 20
    answers are several polls)."""
    events = table.host.from_bot(table.room)
    ended = {(e.get("content") or {}).get("m.relates_to", {}).get("event_id")
             for e in events if e.get("type") in polls.END_TYPES}
    return [e for e in events if e.get("type") in polls.START_TYPES
            and e["event_id"] not in ended]


def open_poll(table: Table) -> dict[str, Any] | None:
    """The group's newest poll from the bot, unless it has been ended."""
    found = open_polls(table)
    return found[-1] if found else None


def private_prompt(player: Player) -> dict[str, Any] | None:
    prompts = [e for e in player.from_bot(player.dm) if options(e)]
    return prompts[-1] if prompts else None


async def choose_privately(player: Player, prompt: dict[str, Any], number: int, label: str,
                           how: str) -> None:
    """Answer a numbered keyboard: by number, by keycap reaction, or by the label."""
    assert player.dm is not None
    if how == "reaction" and number <= len(KEYCAPS):
        await player.react(player.dm, prompt["event_id"], KEYCAPS[number - 1])
    elif how == "label":
        await player.say(player.dm, label)
    else:
        await player.say(player.dm, str(number))


async def play_round(table: Table, rng: random.Random, text_votes: bool = False) -> bool:
    """Everybody alive answers the open ballot (one of its polls; or, with `text_votes`,
    half of the time by `!vote NAME`) and their newest private keyboard, if they have not
    yet. Returns whether anybody did anything."""
    alive = await living(table)
    acted = False
    ballot = open_polls(table)
    for name, player in table.players.items():
        if name not in alive:
            continue
        if ballot and (ballot[0]["event_id"], name) not in table.done:
            answers = [(poll["event_id"], aid, label) for poll in ballot
                       for aid, label in poll_answers(poll["content"])
                       if label not in NOT_CHOSEN and label != name]
            table.done.add((ballot[0]["event_id"], name))
            if answers:
                poll_id, answer_id, label = rng.choice(answers)
                if text_votes and rng.random() < 0.5:
                    await player.say(table.room, f"!vote {label}")
                else:
                    await player.answer(table.room, poll_id, answer_id,
                                        stable=rng.random() < 0.5)
                acted = True
        prompt = private_prompt(player)
        if prompt is not None and (prompt["event_id"], name) not in table.done:
            table.done.add((prompt["event_id"], name))
            choices = [(n, label) for n, label in options(prompt)
                       if label not in NOT_CHOSEN and label != name]
            if choices:
                number, label = rng.choice(choices)
                await choose_privately(player, prompt, number, label,
                                       rng.choice(("number", "reaction", "label")))
                acted = True
    return acted


async def play_to_the_end(table: Table, seed: int, max_rounds: int = 120,
                          rng: random.Random | None = None,
                          text_votes: bool = False) -> GameRecord:
    """Play until the game is over, answering what is offered (see tests/play.py)."""
    async def play(table: Table, rng: random.Random) -> bool:
        return await play_round(table, rng, text_votes)

    return await play_until_over(table, play, rng or random.Random(seed), max_rounds)
