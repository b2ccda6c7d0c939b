"""Writing to the outbox, inside the command's transaction: one typed payload per row (see
payloads.py), rendered in the reader's language only when delivered (delivery/deliverer.py)."""

from __future__ import annotations

import secrets

from core.storage.models import Button, Chat, GameRecord, Identity, Outbox, Told
from core.storage.states import CURRENT, GameStatus, OutboxState, moved

from ..ports.contract import TeamKey
from ..ports.howto import HowTo, howto
from ..rows import pending
from . import button_commands, guide, texts
from .payloads import (
    KeyboardPayload,
    Payload,
    PostPayload,
    SilencePayload,
    StoredButton,
    TeamPayload,
    TextLabel,
    TextPayload,
    from_json,
    label_to_json,
    part,
    to_json,
)

UNREACHABLE = "unreachable"  # the Told kind: the group heard that a private chat is closed


async def to_group(chat: Chat, payload: TextPayload, game: GameRecord | None = None) -> None:
    await pending.add(Outbox(game=game, platform=chat.platform, chat_ref=chat.ref,
                             private=False, payload=to_json(payload)))


async def to_person(identity: Identity, payload: TextPayload,
                    game: GameRecord | None = None) -> None:
    await pending.add(Outbox(game=game, platform=identity.platform, chat_ref=identity.ref,
                             private=True, identity=identity, payload=to_json(payload)))


async def silence(chat: Chat, person: Identity, muted: bool,
                  game: GameRecord | None = None) -> None:
    """Mute or unmute a person in a group, in order with the messages around it."""
    await pending.add(Outbox(game=game, platform=chat.platform, chat_ref=chat.ref,
                             private=False, identity=person,
                             payload=to_json(SilencePayload(person.ref, muted))))


async def team_room(chat: Chat, game: GameRecord, key: TeamKey, title: str, about: str,
                    members: list[Identity], closed: bool = False) -> None:
    """Bring a team room in line with its members now (see `ports.TeamRoom`), in order with
    the messages around it."""
    await pending.add(Outbox(game=game, platform=chat.platform, chat_ref=chat.ref,
                             private=False, payload=to_json(TeamPayload(
                                 str(key), title, about, tuple(m.ref for m in members), closed))))


def stored(row: Outbox) -> Payload:
    """What a row holds."""
    return from_json(row.payload)


def offered_buttons(row: Outbox | None) -> tuple[StoredButton, ...]:
    """The buttons a stored version of a keyboard offers (none for anything else)."""
    payload = None if row is None else stored(row)
    return payload.buttons if isinstance(payload, KeyboardPayload) else ()


def replace_key(payload: Payload) -> str | None:
    """The key of the message a payload is a version of, if it is edited in place."""
    return None if isinstance(payload, SilencePayload | TeamPayload) else payload.replace


async def newest_version(game_id: int, replace: str, *, identity_id: int | None = None,
                         statuses: list[OutboxState] | None = None) -> Outbox | None:
    """The newest stored version of a message edited in place (its `replace` key): a group
    message, or (with `identity_id`) one to that person."""
    await pending.flush()
    rows = Outbox.filter(game_id=game_id, private=identity_id is not None)
    if identity_id is not None:
        rows = rows.filter(identity_id=identity_id)
    if statuses is not None:
        rows = rows.filter(status__in=statuses)
    for row in await rows.order_by("-id").limit(200):
        if replace_key(stored(row)) == replace:
            return row
    return None


def open_private_button() -> StoredButton:
    """A button that opens the presser's private chat (a deep link on Telegram)."""
    return StoredButton(TextLabel(texts.OPEN_PRIVATE_BUTTON), button_commands.HELLO,
                        start=True)


async def tell_group_unreachable(row: Outbox) -> None:
    """A player's private chat is closed to the bot: say so in the game's group, once, with
    a button that opens the private chat (what waits is sent when the player writes). An
    answer to a command written in a group is given there instead, each time (`in_group`)."""
    if row.identity_id is None:
        return
    payload = stored(row)
    if isinstance(payload, PostPayload) and payload.in_group:
        await _answer_in_group(row, payload, payload.in_group)
        return
    if row.game_id is None:
        return
    if await Told.exists(kind=UNREACHABLE, game_id=row.game_id, identity_id=row.identity_id):
        return
    await Told.create(kind=UNREACHABLE, game_id=row.game_id, identity_id=row.identity_id)
    game = await GameRecord.get(id=row.game_id).prefetch_related("chat")
    person = await Identity.get(id=row.identity_id)
    token = secrets.token_urlsafe(12)
    label = TextLabel(texts.OPEN_PRIVATE_BUTTON)
    await pending.add(Button(token=token, game=game, window=game.window, pid=None,
                             label=label_to_json(label),
                             command=button_commands.to_json(button_commands.Hello())))
    await to_group(game.chat, KeyboardPayload(
        (part(texts.OPEN_PRIVATE_CHAT, name=person.name, how=howto(HowTo.OPEN_PRIVATE)),),
        (StoredButton(label, token, start=True),), asks=person.id), game=game)


async def _answer_in_group(row: Outbox, payload: PostPayload, group: str) -> None:
    """The answer, in the group it was asked for in, addressed to its reader (a mention),
    with the button that opens his private chat. Only answers to what he wrote in that
    group have `in_group`: nothing private is said there."""
    person = await Identity.get(id=row.identity_id)
    await pending.add(Outbox(game_id=row.game_id, platform=row.platform, chat_ref=group,
                             private=False, payload=to_json(KeyboardPayload(
                                 (part(guide.ANSWER_IN_GROUP, name=person.name,
                                       how=howto(HowTo.OPEN_PRIVATE)), *payload.parts),
                                 (open_private_button(),), asks=person.id))))


async def reopen(person: Identity) -> int:
    """The person can be read to again (he wrote to the bot privately, or joined the private
    room he was invited to): send what could not reach them before (for games still
    running, or outside any game), and let the group hear again next time. A prompt or a
    reminder for a window that has closed meanwhile is dropped, never sent late: its choice
    is over (the closing edit of a prompt he already has still goes)."""
    await pending.flush()
    rows = await Outbox.filter(identity_id=person.id, status=OutboxState.UNREACHABLE) \
        .order_by("id")
    games = {g.id: g for g in await GameRecord.filter(
        id__in={r.game_id for r in rows if r.game_id is not None})}
    waiting, stale = [], []
    for row in rows:
        game = games.get(row.game_id) if row.game_id is not None else None
        if row.game_id is not None and (game is None or game.status not in CURRENT):
            continue
        if _answered_in_group(row) or (game is not None and await _is_stale(row, game)):
            stale.append(row.id)
        else:
            waiting.append(row.id)
    if waiting:
        await Outbox.filter(id__in=waiting).update(
            status=moved(OutboxState.UNREACHABLE, OutboxState.PENDING), next_try_at=0.0)
    if stale:
        await Outbox.filter(id__in=stale).update(
            status=moved(OutboxState.UNREACHABLE, OutboxState.SUPERSEDED))
    await Outbox.filter(identity_id=person.id, status=OutboxState.UNREACHABLE) \
        .update(status=moved(OutboxState.UNREACHABLE, OutboxState.FAILED))
    await Told.filter(kind=UNREACHABLE, identity_id=person.id).delete()
    return len(waiting)


def _answered_in_group(row: Outbox) -> bool:
    """An answer the group was given instead (`_answer_in_group`): not sent again late."""
    payload = stored(row)
    return isinstance(payload, PostPayload) and payload.in_group is not None


async def _is_stale(row: Outbox, game: GameRecord) -> bool:
    """A waiting prompt or reminder whose window is no longer open, unless it edits a
    message its reader already has."""
    payload = stored(row)
    window = getattr(payload, "window", None)
    if window is None or (game.status == GameStatus.RUNNING and window == game.window):
        return False
    key = replace_key(payload)
    return key is None or not await _was_sent(game.id, row.identity_id, key)


async def _was_sent(game_id: int, identity_id: int | None, key: str) -> bool:
    """Whether a version of the message `key` reached the person (it is his to edit)."""
    for row in await Outbox.filter(game_id=game_id, identity_id=identity_id, private=True,
                                   status=OutboxState.SENT).order_by("-id").limit(500):
        if replace_key(stored(row)) == key:
            return True
    return False
