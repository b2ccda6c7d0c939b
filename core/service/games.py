"""Running games: loading (replay checked against the snapshot), applying one command in a
transaction (log, snapshot, outbox, deadlines, prompts), and what follows a window change."""

from __future__ import annotations

import json
import logging
import secrets
from typing import Any

from core.engine import Act, Close, Command, Game, GameSetup, Host, Outcome, Refused, Vote, replay
from core.engine.commands import MarkEarly
from core.engine.messages import NOTED, Message, Ref
from core.engine.registry import load_ruleset
from core.engine.ruleset import TeamChat
from core.engine.state import Player
from core.storage.models import (
    OPEN_DEADLINES,
    Button,
    Deadline,
    Identity,
    KeyValue,
    LogEntry,
    Seat,
)
from core.storage.models import Game as GameRow

from . import outbox, texts
from .build import build_of
from .clock import Clock
from .codec import command_from_json, command_to_json, encode, message_to_json, text_payload
from .pace import due_at, reminder_lead, time_left, window_key
from .replies import Reply

log = logging.getLogger(__name__)


class StateMismatch(RuntimeError):
    """The stored snapshot and the replayed log disagree: the game must not go on silently."""


def setup_to_json(setup: GameSetup) -> dict[str, Any]:
    return {"ruleset": setup.ruleset, "players": [list(p) for p in setup.players],
            "seed": setup.seed, "roles": None if setup.roles is None else list(setup.roles),
            "options": [list(o) for o in setup.options], "setup": [list(s) for s in setup.setup],
            "start": setup.start, "at": setup.at}


def setup_from_json(data: dict[str, Any]) -> GameSetup:
    return GameSetup(
        ruleset=data["ruleset"], players=tuple((p[0], p[1]) for p in data["players"]),
        seed=data["seed"], roles=None if data["roles"] is None else tuple(data["roles"]),
        options=tuple((o[0], o[1]) for o in data["options"]),
        setup=tuple((s[0], s[1]) for s in data["setup"]), start=data["start"],
        at=float(data.get("at", 0.0)))  # games begun before setups knew their time: 0


class Games:
    """The engine games this process holds, kept in step with the database."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.cache: dict[int, tuple[int, Game]] = {}

    async def load(self, row: GameRow) -> Game:
        cached = self.cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        ruleset = load_ruleset(row.ruleset)
        entries = await LogEntry.filter(game_id=row.id).order_by("seq")
        try:
            game = replay(ruleset, setup_from_json(row.setup or {}),
                          [command_from_json(e.command) for e in entries])
        except Refused as refusal:  # only after an upgrade: the new code refuses an old move
            raise StateMismatch(f"game {row.id}: the log no longer replays: "
                                f"{refusal.key}") from refusal
        if row.snapshot is not None and encode_snapshot(game) != row.snapshot:
            if row.build == build_of(ruleset):
                raise StateMismatch(f"game {row.id}: snapshot and replay disagree")
            log.warning("game %s: the rules' code changed since its snapshot; it goes on "
                        "from its log, replayed under the new code", row.id)
        self.cache[row.id] = (row.version, game)
        return game

    def forget(self, game_id: int) -> None:
        self.cache.pop(game_id, None)

    async def start(self, row: GameRow, setup: GameSetup,
                    announce: dict[str, Any] | None = None) -> Game:
        """Deal and begin; `announce` is told to the group first, before the opening and the
        first window's ballot (only once the setup is known to be valid)."""
        game = Game(load_ruleset(row.ruleset), setup)
        if announce is not None:
            await outbox.to_group(await row.chat, announce, game=row)
        row.setup = setup_to_json(setup)
        row.status = "running"
        row.snapshot = encode_snapshot(game)
        row.build = build_of(game.ruleset)
        row.window = 1
        await row.save()
        self.cache[row.id] = (row.version, game)
        await self.deliver_outcome(row, game, game.opening, urgent=True)  # the role cards
        await self.sync_teams(row, game, [])
        await self.window_opened(row, game)
        return game

    async def apply(self, row: GameRow, command: Command, sender: Identity | None,
                    refusal_as_reply: bool = False) -> bool:
        """Apply one command; a refusal changes nothing and is answered to the sender (or
        raised as a Reply, for a pressed button's short notice)."""
        await relock(row)
        game = await self.load(row)
        teams_before = game.ruleset.team_chats(game)
        try:
            outcome = game.apply(command)
        except Refused as refusal:
            params = dict(refusal.params)
            params.pop("count", None)
            if refusal_as_reply:
                raise Reply(refusal.key, refusal.plural, refusal.count, **params) from None
            if sender is not None:
                await outbox.to_person(sender, text_payload(
                    refusal.key, refusal.plural, refusal.count, **params), game=row)
            return False
        self.forget(row.id)  # until the transaction has stored it
        row.version += 1
        await LogEntry.create(game=row, seq=row.version, command=command_to_json(command),
                              events=[[e.kind, encode(e.data)] for e in outcome.events])
        row.snapshot = encode_snapshot(game)
        row.build = build_of(game.ruleset)
        kinds = {e.kind for e in outcome.events}
        # a closing that leaves the phase as it was (a removal made someone owe a reaction,
        # such as naming the next mayor) still opens a new window: its own deadline, prompts
        reopened = "closed" in kinds and game.state.phase.kind != "ended"
        new_window = "phase" in kinds or reopened
        noted = [m for m in outcome.messages if m.key == NOTED and m.audience.kind == "player"]
        rest = Outcome(outcome.events, [m for m in outcome.messages if m not in noted])
        if not refusal_as_reply:  # (a pressed button: its notice and keyboard say "noted")
            # "noted" before "this choice is closed" when the choice closed its window
            await self.deliver_outcome(row, game, Outcome([], noted))
        if new_window:  # the ballot closes before the group hears the result
            await self._close_ballot(row, game, outcome)
            await self._close_keyboards(row)
        await self.deliver_outcome(row, game, rest, urgent=new_window)  # a window's results
        await self._silence_removed(row, [e.data["player"] for e in outcome.events
                                          if e.kind == "removed"])
        if game.state.phase.kind != "ended":  # after the game its rooms are only closed
            await self.sync_teams(row, game, teams_before)
        if new_window:
            row.window += 1
            await Deadline.filter(game_id=row.id, state__in=OPEN_DEADLINES).update(state="void")
            if game.state.phase.kind == "ended":
                row.status = "ended"
                await self.unmute_the_dead(row, game)
                await self.close_teams(row)
            else:
                await self.window_opened(row, game)
        elif isinstance(command, Host):
            await self._host_timing(row, game, command)
        elif isinstance(command, (Vote, MarkEarly)):
            await self.tally(row, game)
        await row.save()
        self.cache[row.id] = (row.version, game)
        return True

    # ------------------------------------------------------------------ deadlines
    async def _host_timing(self, row: GameRow, game: Game, command: Host) -> None:
        now = self.clock.now()
        pending = await Deadline.filter(game_id=row.id, state="pending").first()
        if command.command == "pause" and pending is not None:
            row.paused_left = max(0.0, pending.due_at - now)
            await Deadline.filter(game_id=row.id, state__in=OPEN_DEADLINES).update(state="void")
        elif command.command == "resume":
            left = row.paused_left if row.paused_left is not None else 0.0
            row.paused_left = None
            await self._schedule(row, now + left)
        elif command.command == "extend":
            if pending is not None:
                await Deadline.filter(game_id=row.id, state__in=OPEN_DEADLINES).update(state="void")
                await self._schedule(row, max(now, pending.due_at + command.minutes * 60))
            elif row.paused_left is not None:
                row.paused_left = max(0.0, row.paused_left + command.minutes * 60)

    async def fire(self, row: GameRow, deadline: Deadline) -> bool:
        """A due deadline: close its window (once), if it is still the game's window; or
        remind those it waits for. Whether a window's deadline fired."""
        closes = deadline.state == "pending"
        deadline.state = "fired" if closes else "reminded"
        await deadline.save()
        if row.status == "running" and row.window == deadline.window:
            if closes:
                await self.apply(row, Close(at=deadline.due_at), None)
            else:
                await self._remind(row)
        return closes

    async def _schedule(self, row: GameRow, due: float) -> None:
        """The open window's deadline, and its reminder (`reminder_lead`) before it."""
        await Deadline.create(game=row, window=row.window, due_at=due)
        lead = reminder_lead(due - self.clock.now())
        if lead is not None:
            await Deadline.create(game=row, window=row.window, due_at=due - lead, state="remind")

    async def _remind(self, row: GameRow) -> None:
        """Tell each player the window still waits for how long is left (a missing vote
        costs the alchemists votes; an unsent action is simply lost)."""
        close = await Deadline.filter(game_id=row.id, window=row.window, state="pending").first()
        if close is None:  # paused (a pause voids the reminder too, so only in a race)
            return
        game = await self.load(row)
        key = texts.REMIND_VOTE if game.ruleset.voting_open(game) else texts.REMIND_CHOICE
        left = time_left(close.due_at - self.clock.now())
        seats = await seat_identities(row)
        for pid in game.ruleset.waiting_for(game):
            if pid in seats:
                await outbox.to_person(seats[pid], {**text_payload(key, left=left),
                                                    "urgent": True}, game=row)

    async def window_opened(self, row: GameRow, game: Game) -> None:
        settings = row.settings or {}
        ruleset = game.ruleset
        preset = ruleset.pace.get(settings.get("pace", "quick"), {}).get(
            window_key(game.state.phase.stage))
        if preset is not None and not game.state.paused:
            await self._schedule(row, due_at(preset, self.clock.now(),
                                             settings.get("tz", "Europe/Berlin")))
        await self._prompts(row, game)

    # ------------------------------------------------------------------ team rooms
    async def sync_teams(self, row: GameRow, game: Game, before: list[TeamChat],
                         moved: str | None = None) -> None:
        """Team rooms follow their chats: one order for each chat whose members changed
        (or that holds the `moved` seat, now someone else's account). A chat that never had
        members gets no room."""
        old = {chat.key: chat.members for chat in before}
        changed = [chat for chat in game.ruleset.team_chats(game)
                   if chat.members != old.get(chat.key, ()) or moved in chat.members]
        if not changed:
            return
        seats = await seat_identities(row)
        group = await row.chat
        for chat in changed:
            await outbox.team_room(group, row, f"{row.id}/{chat.key}", chat.title, chat.about,
                                   [seats[pid] for pid in chat.members if pid in seats])
        ordered = await KeyValue.get_or_none(key=f"teams-{row.id}")
        known = dict(ordered.value) if ordered is not None else {}
        known.update({chat.key: chat.title for chat in changed if chat.members})
        await KeyValue.update_or_create(key=f"teams-{row.id}", defaults={"value": known})

    async def close_teams(self, row: GameRow) -> None:
        """The game is over: each team room it had says goodbye and the bot leaves it (the
        players keep it); nothing more will happen there."""
        ordered = await KeyValue.get_or_none(key=f"teams-{row.id}")
        if ordered is None:
            return
        group = await row.chat
        for key, title in ordered.value.items():
            await outbox.team_room(group, row, f"{row.id}/{key}", title, texts.TEAM_ROOM_CLOSED,
                                   [], closed=True)
        await ordered.delete()

    # ------------------------------------------------------------------ the dead go silent
    async def _silence_removed(self, row: GameRow, pids: list[str]) -> None:
        """The rules silence the dead in the group: mute them there (where the platform lets
        the bot) and invite them to the spectators' chat, if the host named one."""
        if not pids:
            return
        seats = await seat_identities(row)
        chat = await row.chat
        link = (chat.settings or {}).get("spectators")
        for pid in pids:
            person = seats.get(pid)
            if person is None:
                continue
            await outbox.silence(chat, person, muted=True, game=row)
            if link:
                await outbox.to_person(person, text_payload(texts.SPECTATORS_INVITE, link=link),
                                       game=row)

    async def unmute_the_dead(self, row: GameRow, game: Game) -> None:
        """The game is over: everybody may speak again."""
        seats = await seat_identities(row)
        chat = await row.chat
        for p in game.state.players.values():
            if not p.alive and p.pid in seats:
                await outbox.silence(chat, seats[p.pid], muted=False, game=row)

    # ------------------------------------------------------------------ messages and prompts
    async def deliver_outcome(self, row: GameRow, game: Game, outcome: Outcome,
                              urgent: bool = False) -> None:
        """The engine's messages to their readers; `urgent` ones (the opening's role cards,
        what a closed window decided) notify where a platform keeps a bot's messages quiet,
        the rest (what answers a command in the middle of a window) does not."""
        seats = await seat_identities(row)
        host = await Identity.get(id=row.host_id)
        chat = await row.chat
        for message in outcome.messages:
            payload = {**message_to_json(message), "seq": row.version}  # the command behind it
            if urgent:
                payload["urgent"] = True
            for person in self._readers(game, message, seats, host):
                if person is None:
                    await outbox.to_group(chat, payload, game=row)
                else:
                    await outbox.to_person(person, payload, game=row)

    def _readers(self, game: Game, message: Message, seats: dict[str, Identity],
                 host: Identity) -> list[Identity | None]:
        audience = message.audience
        if audience.kind == "group":
            return [None]
        if audience.kind == "player":
            return [seats[audience.ref]] if audience.ref in seats else []
        if audience.kind == "team":
            members = game.ruleset.team_members(game, audience.ref or "")
            return [seats[m] for m in members if m in seats]
        return [host]

    async def _prompts(self, row: GameRow, game: Game) -> None:
        """Keyboards for the window that just opened: the group's vote, each actor's options."""
        state = game.state
        ruleset = game.ruleset
        chat = await row.chat
        living = [p for p in state.players.values() if p.alive]
        if ruleset.voting_open(game):
            buttons = [await self.button(row, None, encode(Ref("player", p.pid)),
                                          {"type": "vote", "target": p.pid}) for p in living]
            if ruleset.early_votes_open(game):
                buttons.append(await self.button(row, None, {"key": texts.EARLY_BUTTON},
                                                  {"type": "early"}))
            buttons.append(await self.button(row, None, {"key": texts.WITHDRAW_BUTTON},
                                              {"type": "vote", "target": None}))
            await KeyValue.create(key=self._ballot_key(row), value=buttons)
            await outbox.to_group(chat, {**text_payload(texts.VOTE_PROMPT), "urgent": True,
                                         "replace": self._ballot_key(row)},
                                  game=row, buttons=buttons)
        seats = await seat_identities(row)
        for p in state.players.values():
            specs = ruleset.prompted(game, p) if p.pid in seats else []
            if specs:
                await self._keyboard(row, game, p, specs, seats[p.pid])

    async def _keyboard(self, row: GameRow, game: Game, p: Player, specs: Any,
                        person: Identity) -> None:
        """One keyboard per player and window: every valid (action, target) as a button
        (labelled by the target's name, or "action: name" when he has several actions); an
        action with two targets or a role gets a keyboard of its own (the first player, then
        the second; or the roles). Writing the command works as well."""
        pressable = [s for s in specs if s.targets < 2 and not s.takes_role]
        several = len(pressable) > 1
        buttons = []
        for spec in pressable:
            action = Ref("action", spec.id)
            choices = [()] if spec.targets == 0 else [
                (t.pid,) for t in game.state.players.values()]
            for targets in choices:
                if game.check(Act(p.pid, spec.id, targets)) is not None:
                    continue
                if targets:
                    name = Ref("player", targets[0])
                    label = encode(name) if not several else {
                        "key": texts.ACTION_ON, "params": encode({"action": action, "name": name})}
                else:
                    label = {"key": texts.ACTION_ONLY, "params": encode({"action": action})}
                buttons.append(await self.button(row, p.pid, label, {
                    "type": "act", "action": spec.id, "targets": list(targets)}))
        if buttons:
            buttons.append(await self.button(row, p.pid, {"key": texts.PASS_BUTTON},
                                              {"type": "act", "action": "pass", "targets": []}))
            await self._offer(row, person, text_payload(
                texts.ACTION_PROMPT, action=tuple(Ref("action", s.id) for s in pressable)),
                buttons)
        for spec in specs:
            if spec.takes_role:
                await self._role_keyboard(row, game, p, spec, person)
            elif spec.targets == 2:
                await self._first_pick(row, game, p, spec, person)

    async def _first_pick(self, row: GameRow, game: Game, p: Player, spec: Any,
                          person: Identity) -> None:
        """Two targets: first the players who can come first (some second one makes a
        valid choice with them); pressing one offers the second (`second_pick`)."""
        players = list(game.state.players)
        buttons = []
        for first in players:
            if any(game.check(Act(p.pid, spec.id, (first, second))) is None
                   for second in players if second != first):
                buttons.append(await self.button(row, p.pid, encode(Ref("player", first)), {
                    "type": "pick", "action": spec.id, "targets": [first]}))
        if buttons:
            await self._offer(row, person, text_payload(
                texts.PICK_FIRST, action=Ref("action", spec.id), command=spec.id), buttons)

    async def second_pick(self, row: GameRow, game: Game, pid: str, action: str, first: str,
                          person: Identity) -> None:
        """The first target was pressed: the valid second ones, as a new keyboard."""
        buttons = [await self.button(row, pid, encode(Ref("player", second)), {
                       "type": "act", "action": action, "targets": [first, second]})
                   for second in game.state.players
                   if second != first and game.check(Act(pid, action, (first, second))) is None]
        if not buttons:
            raise Reply(texts.PICK_NONE)
        await self._offer(row, person, text_payload(
            texts.PICK_NEXT, action=Ref("action", action), name=Ref("player", first)), buttons)

    async def _role_keyboard(self, row: GameRow, game: Game, p: Player, spec: Any,
                             person: Identity) -> None:
        """An action that names a role: every role it may name, as a button."""
        buttons = [await self.button(row, p.pid, encode(Ref("role", role_id)), {
                       "type": "act", "action": spec.id, "targets": [], "role": role_id})
                   for role_id in game.ruleset.roles
                   if game.check(Act(p.pid, spec.id, (), None, role_id)) is None]
        if buttons:
            await self._offer(row, person, text_payload(
                texts.PICK_ROLE, action=Ref("action", spec.id), command=spec.id), buttons)

    async def tally(self, row: GameRow, game: Game) -> None:
        """The live tally, under the window's ballot: one group message, edited in place
        (adapters that cannot edit post the newest version)."""
        chat = await row.chat
        payload = tally_payload(game, game.tally())
        ballot = await KeyValue.get_or_none(key=self._ballot_key(row))
        if ballot is None:  # a vote without a ballot (a reaction window): the tally alone
            await outbox.to_group(chat, {**payload, "replace": f"tally-{row.id}-{row.window}"},
                                  game=row)
            return
        await outbox.to_group(chat, {**text_payload(texts.VOTE_PROMPT), "more": [payload],
                                     "replace": self._ballot_key(row)},
                              game=row, buttons=ballot.value)

    async def _close_ballot(self, row: GameRow, game: Game, outcome: Outcome) -> None:
        """The window with a ballot has closed: its last version has no buttons (nobody
        presses a stale one, a poll ends) and shows the count that decided, if the rules
        counted (the result follows from them)."""
        if not await KeyValue.exists(key=self._ballot_key(row)):
            return
        counted = next((e.data["votes"] for e in outcome.events if e.kind == "counted"), None)
        more = [] if counted is None else [tally_payload(game, counted, final=True)]
        await outbox.to_group(await row.chat, {**text_payload(texts.VOTE_CLOSED), "more": more,
                                               "replace": self._ballot_key(row)}, game=row)

    @staticmethod
    def _ballot_key(row: GameRow) -> str:
        return f"ballot-{row.id}-{row.window}"

    async def _offer(self, row: GameRow, person: Identity, payload: dict[str, Any],
                     buttons: list[dict[str, Any]]) -> None:
        """A private keyboard of this window, remembered so that it closes with the window."""
        key = f"keyboards-{row.id}-{row.window}"
        offered = await KeyValue.get_or_none(key=key)
        entries = list(offered.value) if offered is not None else []
        replace = f"choices-{row.id}-{row.window}-{len(entries)}"
        await outbox.to_person(person, {**payload, "replace": replace, "urgent": True},
                               game=row, buttons=buttons)
        entries.append({"identity": person.id, "replace": replace, "payload": payload})
        await KeyValue.update_or_create(key=key, defaults={"value": entries})

    async def show_choice(self, row: GameRow, person: Identity, token: str) -> None:
        """A button pressed on a private keyboard: the keyboard's own message is edited to
        say what is chosen now (its buttons stay: the choice may change until the phase
        closes)."""
        offered = await KeyValue.get_or_none(key=f"keyboards-{row.id}-{row.window}")
        if offered is None:
            return
        for entry in offered.value:
            if entry["identity"] != person.id:
                continue
            version = await outbox.newest_version(row.id, entry["replace"],
                                                  identity_id=person.id)
            buttons = (version.payload.get("buttons") or []) if version is not None else []
            pressed = next((b for b in buttons if b["token"] == token), None)
            if pressed is None:
                continue
            await outbox.to_person(person, {**entry["payload"], "more": [
                choice_part(pressed["label"])], "replace": entry["replace"]},
                game=row, buttons=buttons)
            return

    async def _close_keyboards(self, row: GameRow) -> None:
        """The window has closed: each private keyboard it offered is edited into its last
        version, without buttons and saying so (a press would only be answered as stale)."""
        offered = await KeyValue.get_or_none(key=f"keyboards-{row.id}-{row.window}")
        if offered is None:
            return
        people = {i.id: i for i in await Identity.filter(
            id__in={entry["identity"] for entry in offered.value})}
        for entry in offered.value:
            person = people.get(entry["identity"])
            if person is not None:
                await outbox.to_person(person, {
                    **entry["payload"], "more": [text_payload(texts.CHOICES_CLOSED)],
                    "replace": entry["replace"]}, game=row)
        await offered.delete()

    async def button(self, row: GameRow, pid: str | None, label: dict[str, Any],
                     command: dict[str, Any], start: bool = False) -> dict[str, Any]:
        """A button offered in this window; `start` ones are pressed from the private chat."""
        token = secrets.token_urlsafe(12)
        await Button.create(token=token, game=row, window=row.window, pid=pid, label=label,
                            command=command)
        return {"label": label, "token": token, "start": start}


def tally_payload(game: Game, votes: dict[str, int], final: bool = False) -> dict[str, Any]:
    """Who has how many votes, most first (seat order among equals)."""
    counts = sorted(((n, pid) for pid, n in votes.items() if n > 0),
                    key=lambda item: (-item[0], game.state.players[item[1]].seat))
    if not counts:
        return text_payload(texts.TALLY_FINAL_EMPTY if final else texts.TALLY_EMPTY)
    return text_payload(texts.TALLY_FINAL if final else texts.TALLY,
                        tally=tuple((Ref("player", pid), n) for n, pid in counts))


async def locked_game(game_id: int) -> GameRow:
    """The game's row, locked until the transaction ends (PostgreSQL; SQLite has one writer
    anyway): commands for one game are applied one at a time, whichever worker has them."""
    return await GameRow.filter(id=game_id).select_for_update().get()


async def relock(row: GameRow) -> None:
    """Lock an already loaded row and bring it up to date: another worker may have applied a
    command since it was read."""
    fresh = await locked_game(row.id)
    for name in ("status", "version", "window", "snapshot", "settings", "setup", "paused_left"):
        setattr(row, name, getattr(fresh, name))


async def seat_identities(row: GameRow) -> dict[str, Identity]:
    seats = await Seat.filter(game_id=row.id, active=True).prefetch_related("identity")
    return {seat.pid: seat.identity for seat in seats}


def encode_snapshot(game: Game) -> Any:
    """The canonical state as stored JSON (tuples become lists)."""
    return json.loads(json.dumps(game.snapshot()))


def choice_part(label: dict[str, Any]) -> dict[str, Any]:
    """"Your choice now: …" for a pressed button's label (a name, a role, an action)."""
    if "key" in label and label["key"] == texts.PASS_BUTTON:
        return text_payload(texts.CHOICE_PASS)
    if "key" in label:  # "{action}: {name}" or "{action}!": the same words, as a choice
        params = label.get("params") or {}
        key = texts.CHOICE_ACTION_ON if "name" in params else texts.CHOICE_ACTION
        return {"key": key, "plural": None, "count": None, "params": params}
    if "ref" in label:
        return {**text_payload(texts.CHOICE_NOW), "params": {"choice": label}}
    return text_payload(texts.CHOICE_NOW, choice=str(label.get("text", "")))
