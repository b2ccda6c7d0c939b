"""Writing to the outbox (inside the command's transaction) and delivering from it.

Messages are stored as keys with parameters and rendered in the reader's language only when
delivered. Delivery retries transient failures with exponential backoff and keeps every
adapter within its per-chat and overall rate limits. A row is marked "sending" before it is
handed to the adapter, so a crash never announces anything twice (see `Deliverer.recover`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import secrets
import socket
from typing import Any, Protocol

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from core.engine.registry import available, load_ruleset
from core.i18n import Renderer, available_locales
from core.storage.models import Button, Chat, Game, Identity, KeyValue, Outbox, Seat

from . import texts
from .clock import Clock
from .codec import decode, text_payload
from .names import shown_names
from .pacing import RateLimiter
from .ports import (
    Adapter,
    ButtonOut,
    ChatEvent,
    ChatLost,
    ChatMoved,
    NotAllowed,
    Outgoing,
    PermanentError,
    Silence,
    TeamRoom,
    TransientError,
    UnknownOutcome,
    Unreachable,
)

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
MAX_BACKOFF = 300.0


async def to_group(chat: Chat, payload: dict[str, Any], game: Game | None = None,
                   buttons: list[dict[str, Any]] | None = None) -> None:
    await Outbox.create(game=game, platform=chat.platform, chat_ref=chat.ref, private=False,
                        payload={**payload, "buttons": buttons or []})


async def to_person(identity: Identity, payload: dict[str, Any], game: Game | None = None,
                    buttons: list[dict[str, Any]] | None = None) -> None:
    await Outbox.create(game=game, platform=identity.platform, chat_ref=identity.ref,
                        private=True, identity=identity,
                        payload={**payload, "buttons": buttons or []})


async def silence(chat: Chat, person: Identity, muted: bool, game: Game | None = None) -> None:
    """Mute or unmute a person in a group, in order with the messages around it."""
    await Outbox.create(game=game, platform=chat.platform, chat_ref=chat.ref, private=False,
                        identity=person,
                        payload={"silence": {"user": person.ref, "muted": muted}})


async def team_room(chat: Chat, game: Game, key: str, title: str, about: str,
                    members: list[Identity], closed: bool = False) -> None:
    """Bring a team room in line with its members now (see `ports.TeamRoom`), in order with
    the messages around it."""
    await Outbox.create(game=game, platform=chat.platform, chat_ref=chat.ref, private=False,
                        payload={"team": {"key": key, "title": title, "about": about,
                                          "members": [m.ref for m in members],
                                          "closed": closed}})


ORDERS = ("silence", "team")  # outbox rows that change a chat rather than post to it


class Watcher(Protocol):
    """Who hears what delivery learned about a chat (the game service)."""

    async def chat_event(self, event: ChatEvent) -> None: ...

    async def order_refused(self, outbox_id: int) -> None: ...


LEASE_KEY = "outbox-lease"
LEASE_SECONDS = 15.0


def worker_name() -> str:
    return f"{socket.gethostname()[:20]}-{os.getpid()}-{secrets.token_hex(4)}"


class Deliverer:
    """Hands due outbox rows to their adapters.

    With several workers on one database (`shared`), one of them delivers at a time: it holds
    a lease that it renews while alive, so each chat's order and the platforms' rate limits
    (kept in that worker's memory) hold; when it dies, another takes the lease after at most
    LEASE_SECONDS and recovers what the dead one was sending.
    """

    def __init__(self, adapters: dict[str, Adapter], clock: Clock, shared: bool = False,
                 watcher: Watcher | None = None) -> None:
        self.adapters = adapters
        self.clock = clock
        self.shared = shared
        self.watcher = watcher
        self.worker = worker_name()
        self.leading = False
        self.limiter = RateLimiter()
        self.failures: dict[str, int] = {}

    async def _lead(self, now: float) -> bool:
        """Hold (or take, or renew) the delivery lease; recover when newly taken."""
        if not self.shared:
            if not self.leading:
                self.leading = True
                await self.recover()
            return True
        lease = await KeyValue.get_or_none(key=LEASE_KEY)
        if lease is None:
            with contextlib.suppress(IntegrityError):
                await KeyValue.create(key=LEASE_KEY, value={"worker": "", "until": 0.0})
        async with in_transaction():
            lease = await KeyValue.filter(key=LEASE_KEY).select_for_update().get()
            holder, until = lease.value.get("worker"), float(lease.value.get("until", 0.0))
            mine = holder == self.worker
            if not mine and until > now:
                self.leading = False
                return False
            if not mine or until - now < LEASE_SECONDS / 2:
                lease.value = {"worker": self.worker, "until": now + LEASE_SECONDS}
                await lease.save(update_fields=["value"])
        if not self.leading:
            self.leading = True
            await self.recover()
        return True

    async def release(self) -> None:
        """A clean stop: let the next worker (or this one restarted) deliver at once."""
        if self.shared and self.leading:
            async with in_transaction():
                lease = await KeyValue.filter(key=LEASE_KEY).select_for_update().first()
                if lease is not None and lease.value.get("worker") == self.worker:
                    lease.value = {"worker": "", "until": 0.0}
                    await lease.save(update_fields=["value"])
        self.leading = False

    async def recover(self) -> None:
        """After a crash, a message caught between "sending" and "sent" may or may not have
        arrived: send it again only where the platform makes that harmless (an edit in place),
        otherwise give it up rather than announce something twice. A mute or a team room's
        membership is a state, so setting it again is always harmless."""
        for row in await Outbox.filter(status="sending", platform__in=list(self.adapters)) \
                .exclude(worker=self.worker):
            adapter = self.adapters[row.platform]
            resend = getattr(adapter, "can_resend", None)
            again = any(order in row.payload for order in ORDERS) or (
                resend is not None and await resend(row.chat_ref, row.payload.get("replace")))
            row.status = "pending" if again else "unknown"
            await row.save(update_fields=["status"])

    async def deliver_due(self, limit: int = 200) -> int:
        """Deliver what is due now; return how many were sent."""
        now = self.clock.now()
        if not await self._lead(now):
            return 0
        ready = [name for name, adapter in self.adapters.items()
                 if getattr(adapter, "connected", True)]  # a platform not reached yet waits
        rows = await (Outbox.filter(status="pending", next_try_at__lte=now,
                                    platform__in=ready)
                      .order_by("id").limit(limit))
        sent = 0
        blocked: set[tuple[str, str]] = set()
        newest: dict[str, int] = {}
        for row in rows:
            key = row.payload.get("replace")
            if key:
                newest[key] = row.id
        for row in rows:
            replaced = row.payload.get("replace")
            if replaced and newest[replaced] != row.id:
                row.status = "superseded"  # a newer version of the same message waits
                await row.save(update_fields=["status"])
                continue
            adapter = self.adapters[row.platform]
            key = (row.platform, row.chat_ref)
            paced = not any(order in row.payload for order in ORDERS)  # not a message
            if key in blocked or (paced and not self.limiter.allow(adapter, row.chat_ref,
                                                                   row.private, now)):
                blocked.add(key)  # keep each chat's order: nothing later for it this round
                continue
            row.status = "sending"  # committed before the send: a crash cannot repeat it
            row.worker = self.worker
            await row.save(update_fields=["status", "worker"])
            try:
                parts = await self._hand_over(adapter, row)
            except ChatMoved as err:  # the failed message goes to the chat's new place
                row.status = "pending"
                row.next_try_at = now
                blocked.add(key)
                await row.save(update_fields=["status", "next_try_at"])
                await self._tell(ChatEvent(row.platform, row.chat_ref, "moved",
                                           new_ref=err.new_ref))
                continue
            except TransientError as err:
                row.attempts += 1
                delay = err.retry_after or min(MAX_BACKOFF, 2.0 ** row.attempts)
                row.next_try_at = now + delay
                row.status = "failed" if row.attempts >= MAX_ATTEMPTS else "pending"
                if err.retry_after:
                    self.limiter.hold(row.platform, row.chat_ref, row.next_try_at)
                self._failed(row.platform)
                blocked.add(key)
                log.warning("delivery %s failed (attempt %s): %s", row.id, row.attempts, err)
            except UnknownOutcome as err:
                row.status = "unknown"  # may have arrived: posting it again could double it
                self._failed(row.platform)
                log.warning("delivery %s may or may not have arrived: %s", row.id, err)
            except ChatLost as err:
                row.status = "lost"  # posted when the bot can write there again
                self._failed(row.platform)
                blocked.add(key)
                await row.save(update_fields=["status"])
                await self._tell(ChatEvent(row.platform, row.chat_ref, "lost",
                                           reason=err.reason, whole=not err.reason.startswith(
                                               "topic")))
                continue
            except NotAllowed as err:
                row.status = "norights"  # done when the bot has the right again
                await row.save(update_fields=["status"])
                log.info("delivery %s waits for the right to do it: %s", row.id, err)
                if self.watcher is not None:
                    await self.watcher.order_refused(row.id)
                continue
            except Unreachable as err:
                row.status = "unreachable"
                self._failed(row.platform)
                log.info("delivery %s waits for its reader: %s", row.id, err)
                await tell_group_unreachable(row)
            except PermanentError as err:
                row.status = "failed"
                self._failed(row.platform)
                log.warning("delivery %s failed for good: %s", row.id, err)
            else:
                row.status = "sent"
                sent += 1
                if paced and parts > 1:  # a long text went as several messages
                    self.limiter.spend(adapter, row.chat_ref, row.private, now, parts - 1)
            await row.save(update_fields=["status", "attempts", "next_try_at"])
        return sent

    async def _tell(self, event: ChatEvent) -> None:
        if self.watcher is not None:
            await self.watcher.chat_event(event)

    async def _hand_over(self, adapter: Adapter, row: Outbox) -> int:
        """Deliver one row; how many platform messages it took."""
        order = row.payload.get("silence")
        team = row.payload.get("team")
        prefix = command_prefix(adapter)
        if order is not None:
            await adapter.silence(Silence(row.id, row.chat_ref, order["user"], order["muted"]))
        elif team is not None:
            renderer = await game_renderer(row.game_id, await reader_locale(row), prefix)
            await adapter.team(TeamRoom(
                row.id, row.chat_ref, team["key"], renderer.render_parts(team["title"], None,
                                                                       None, {}),
                renderer.render_parts(team["about"], None, None, {}), tuple(team["members"]),
                bool(team.get("closed"))))
        else:
            message = await render(row, prefix)
            await adapter.send(message)
            cost = getattr(adapter, "cost", None)
            return int(cost(message)) if cost is not None else 1
        return 1

    def _failed(self, platform: str) -> None:
        self.failures[platform] = self.failures.get(platform, 0) + 1


def command_prefix(adapter: Adapter) -> str:
    """How commands are typed on the adapter's platform (see `Adapter`)."""
    return str(getattr(adapter, "command_prefix", "/"))


async def newest_version(game_id: int, replace: str, *, identity_id: int | None = None,
                         statuses: list[str] | None = None) -> Outbox | None:
    """The newest stored version of a message edited in place (its `replace` key): a group
    message, or (with `identity_id`) one to that person."""
    rows = Outbox.filter(game_id=game_id, private=identity_id is not None)
    if identity_id is not None:
        rows = rows.filter(identity_id=identity_id)
    if statuses is not None:
        rows = rows.filter(status__in=statuses)
    for row in await rows.order_by("-id").limit(200):
        if row.payload.get("replace") == replace:
            return row
    return None


async def tell_group_unreachable(row: Outbox) -> None:
    """A player's private chat is closed to the bot: say so in the game's group, once, with
    a button that opens the private chat (what waits is sent when the player writes)."""
    if row.game_id is None or row.identity_id is None:
        return
    flag = f"unreachable-{row.game_id}-{row.identity_id}"
    if await KeyValue.exists(key=flag):
        return
    await KeyValue.create(key=flag, value=True)
    game = await Game.get(id=row.game_id).prefetch_related("chat")
    person = await Identity.get(id=row.identity_id)
    token = secrets.token_urlsafe(12)
    await Button.create(token=token, game=game, window=game.window, pid=None,
                        label={"key": texts.OPEN_PRIVATE_BUTTON}, command={"type": "hello"})
    await to_group(game.chat, text_payload(texts.OPEN_PRIVATE_CHAT, name=person.name),
                   game=game, buttons=[{"label": {"key": texts.OPEN_PRIVATE_BUTTON},
                                        "token": token, "start": True}])


async def reopen(person: Identity) -> int:
    """The person wrote to the bot privately: send what could not reach them before (for
    games still running, or outside any game), and let the group hear again next time."""
    rows = Outbox.filter(identity_id=person.id, status="unreachable")
    waiting = [r.id for r in await rows if r.game_id is None or (
        await Game.get(id=r.game_id)).status in ("lobby", "running")]
    if waiting:
        await Outbox.filter(id__in=waiting).update(status="pending", next_try_at=0.0)
    await Outbox.filter(identity_id=person.id, status="unreachable").update(status="failed")
    await KeyValue.filter(key__startswith="unreachable-",
                          key__endswith=f"-{person.id}").delete()
    return len(waiting)


async def personal_text(person: Identity, fallback_locale: str, answer: Any,
                        game_id: int | None, prefix: str = "/") -> str:
    """A service answer (a `Reply`) rendered at once for one person, for platforms that show
    it immediately (a pressed button's notice) rather than through the outbox; commands
    written with the platform's `prefix`."""
    known = set(available_locales())
    locale = next((c for c in (person.locale, person.locale_hint, fallback_locale)
                   if c in known), "en")
    renderer = await game_renderer(game_id, locale, prefix)
    return renderer.render(answer.text)


async def game_renderer(game_id: int | None, locale: str, prefix: str = "/") -> Renderer:
    """A renderer that knows a game's player names and its rule set's vocabulary, writing
    commands with the platform's `prefix`."""
    names: dict[str, str] = {}
    vocabulary = every_vocabulary()  # outside a game (/roles before /newgame): all rule sets'
    ruleset = None
    if game_id is not None:
        game = await Game.get(id=game_id)
        ruleset = game.ruleset
        vocabulary = load_ruleset(ruleset).vocabulary
        seats = await Seat.filter(game_id=game.id, active=True).prefetch_related("identity")
        names = shown_names({seat.pid: (seat.identity.name, seat.identity.handle)
                             for seat in seats})
    return Renderer(locale, vocabulary, lambda pid: names.get(pid, pid), prefix, ruleset)


@functools.cache
def every_vocabulary() -> dict[str, dict[str, str]]:
    """The words of every rule set (role, action, side names...), merged."""
    merged: dict[str, dict[str, str]] = {}
    for ruleset_id in sorted(available()):
        for kind, words in load_ruleset(ruleset_id).vocabulary.items():
            merged.setdefault(kind, {}).update(words)
    return merged


async def reader_locale(row: Outbox) -> str:
    """A private message: the reader's own setting, else the platform's hint, else the
    group's; a group message: the chat's language."""
    known = set(available_locales())
    if row.private and row.identity_id is not None:
        person = await Identity.get(id=row.identity_id)
        for choice in (person.locale, person.locale_hint, row.payload.get("locale")):
            if choice in known:
                return str(choice)
    if row.game_id is not None:
        game = await Game.get(id=row.game_id).prefetch_related("chat")
        return str(game.chat.locale)
    if not row.private:
        chat = await Chat.get_or_none(platform=row.platform, ref=row.chat_ref)
        if chat is not None:
            return str(chat.locale)
    return "en"


async def render(row: Outbox, prefix: str = "/") -> Outgoing:
    renderer = await game_renderer(row.game_id, await reader_locale(row), prefix)
    payload = row.payload
    text = "\n\n".join(
        renderer.render_parts(part["key"], part.get("plural"), part.get("count"),
                              decode(part.get("params") or {}))
        for part in (payload, *payload.get("more", ())))
    buttons = tuple(ButtonOut(label_text(renderer, b["label"]), b["token"], bool(b.get("start")))
                    for b in payload.get("buttons") or [])
    recipient = None
    if row.private and row.identity_id is not None:
        recipient = (await Identity.get(id=row.identity_id)).name
    return Outgoing(row.id, row.chat_ref, row.private, text, recipient, buttons,
                    row.payload.get("replace"), bool(row.payload.get("urgent")))


def label_text(renderer: Renderer, label: dict[str, Any]) -> str:
    if "text" in label:
        return str(label["text"])
    if "ref" in label:
        return str(renderer.value(decode(label)))
    return renderer.text(label["key"], decode(label.get("params") or {}))
