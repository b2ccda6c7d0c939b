"""An outbox row made into what its adapter is handed: its payload decoded, its texts
rendered in the reader's language (with the game's player names and its rule set's words),
its destination typed (a group chat, or one reader)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, assert_never

from core.engine.log_codec import decode
from core.engine.registry import available, load_ruleset
from core.i18n import Renderer, available_locales
from core.storage.models import Chat, GameRecord, Identity, Outbox, Seat
from core.storage.states import CURRENT

from ..messages.payloads import (
    BallotPayload,
    KeyboardPayload,
    Label,
    NameLabel,
    Part,
    PicturePayload,
    PostPayload,
    SilencePayload,
    StoredButton,
    TeamPayload,
    TextLabel,
    WordsLabel,
    from_json,
    text_part,
)
from ..ports.contract import (
    Ballot,
    ButtonOut,
    ChatRef,
    Keyboard,
    Order,
    Outgoing,
    Post,
    Reader,
    Silence,
    TeamKey,
    TeamRoom,
    UserRef,
)
from ..ports.howto import Wording
from ..telling.names import shown_names
from .pictures import story_picture

PLAIN = Wording()  # "/" commands and no how-to texts: a platform that says none


async def render(row: Outbox, words: Wording = PLAIN) -> Outgoing | Order:
    """The row as its adapter is handed it, in the platform's `words` (its command prefix
    and how-to texts)."""
    payload = from_json(row.payload)
    if isinstance(payload, SilencePayload):
        person = await Identity.get_or_none(id=row.identity_id) if row.identity_id else None
        user = UserRef(person.ref, person.anonymous) if person is not None \
            else UserRef(payload.user)
        return Silence(row.id, ChatRef.parse(row.chat_ref), user, payload.muted)
    locale = payload.locale if isinstance(payload, PostPayload) else None
    renderer = await game_renderer(row.game_id, await reader_locale(row, locale), words)
    if isinstance(payload, TeamPayload):
        return TeamRoom(row.id, ChatRef.parse(row.chat_ref), TeamKey.parse(payload.key),
                        renderer.render_parts(payload.title, None, None, {}),
                        renderer.render_parts(payload.about, None, None, {}),
                        tuple(UserRef(ref) for ref in payload.members), payload.closed)
    to = await destination(row)
    text = render_text(renderer, payload.parts)
    if isinstance(payload, PicturePayload):
        return await story_picture(row, to, text, renderer.locale, payload.urgent)
    if isinstance(payload, BallotPayload):
        assert isinstance(to, ChatRef), "a ballot is the group's"
        return Ballot(row.id, to, text, buttons_out(renderer, payload.options),
                      payload.replace, payload.urgent)
    asks = await asked(payload.asks)
    urgent = payload.urgent or payload.asks is not None  # what asks someone to act rings
    if isinstance(payload, KeyboardPayload):
        return Keyboard(row.id, to, text, buttons_out(renderer, payload.buttons),
                        payload.replace, urgent, asks)
    return Post(row.id, to, text, payload.replace, urgent, asks)


async def asked(identity_id: int | None) -> Reader | None:
    """The person a message asks to act, as the platform names him (nobody for an anonymous
    sender: no person stands behind him to notify)."""
    person = await Identity.get_or_none(id=identity_id) if identity_id is not None else None
    if person is None or person.anonymous:
        return None
    return Reader(UserRef(person.ref), person.name)


async def destination(row: Outbox) -> ChatRef | Reader:
    """The group chat of a group message, the reader of a private one."""
    if not row.private:
        return ChatRef.parse(row.chat_ref)
    person = await Identity.get_or_none(id=row.identity_id) if row.identity_id else None
    if person is None:
        return Reader(UserRef(row.chat_ref), row.chat_ref)
    return Reader(UserRef(person.ref, person.anonymous), person.name)


def render_text(renderer: Renderer, parts: Sequence[Part]) -> str:
    """A message's parts as paragraphs; a `line` part on the next line of the one before."""
    text = ""
    for i, part in enumerate(parts):
        text += ("" if i == 0 else "\n" if part.line else "\n\n") + render_part(renderer, part)
    return text


def render_part(renderer: Renderer, text: Part) -> str:
    return renderer.render_parts(text.key, text.plural, text.count, decode(dict(text.params)))


def buttons_out(renderer: Renderer, buttons: tuple[StoredButton, ...]) -> tuple[ButtonOut, ...]:
    return tuple(ButtonOut(label_text(renderer, b.label), b.token, b.start) for b in buttons)


def label_text(renderer: Renderer, label: Label) -> str:
    match label:
        case NameLabel(ref):
            return renderer.word(ref)
        case TextLabel(key, params):
            return renderer.text(key, decode(dict(params)))
        case WordsLabel(words):  # a label in the platform's own words (not translated)
            return words
        case _:
            assert_never(label)


async def personal_text(person: Identity, fallback_locale: str, answer: Any,
                        game_id: int | None, words: Wording = PLAIN) -> str:
    """A service answer (a `Reply`) rendered at once for one person, for platforms that show
    it immediately (a pressed button's notice) rather than through the outbox, in the
    platform's `words`."""
    known = set(available_locales())
    locale = next((c for c in (person.locale, person.locale_hint, fallback_locale)
                   if c in known), "en")
    renderer = await game_renderer(game_id, locale, words)
    return render_part(renderer, text_part(answer.text))


async def game_renderer(game_id: int | None, locale: str, words: Wording = PLAIN) -> Renderer:
    """A renderer that knows a game's player names and its rule set's vocabulary, in the
    platform's `words` (its command prefix and how-to texts)."""
    names: dict[str, str] = {}
    vocabulary = every_vocabulary()  # outside a game (/roles before /newgame): all rule sets'
    ruleset = None
    if game_id is not None:
        game = await GameRecord.get(id=game_id)
        ruleset = game.ruleset
        vocabulary = load_ruleset(ruleset).vocabulary
        seats = await Seat.filter(game_id=game.id, active=True).prefetch_related("identity")
        names = shown_names({seat.pid: (seat.identity.name, seat.identity.handle)
                             for seat in seats})
    return Renderer(locale, vocabulary, lambda pid: names.get(pid, pid), words.prefix, ruleset,
                    words.howto, words.catalog)


@functools.cache
def every_vocabulary() -> dict[str, dict[str, str]]:
    """The words of every rule set (role, action, side names...), merged."""
    merged: dict[str, dict[str, str]] = {}
    for ruleset_id in sorted(available()):
        for kind, words in load_ruleset(ruleset_id).vocabulary.items():
            merged.setdefault(kind, {}).update(words)
    return merged


async def reader_locale(row: Outbox, asked_in: str | None = None) -> str:
    """A private message: the reader's own setting, else the platform's hint (Telegram's
    `language_code`), else the language of where the answer was asked for (`asked_in`),
    else that of the game he plays or signed up for; a group message: the chat's."""
    known = set(available_locales())
    if row.private and row.identity_id is not None:
        person = await Identity.get(id=row.identity_id)
        for choice in (person.locale, person.locale_hint, asked_in):
            if choice in known:
                return str(choice)
    if row.game_id is not None:
        game = await GameRecord.get(id=row.game_id).prefetch_related("chat")
        return str(game.chat.locale)
    if row.private and row.identity_id is not None:  # /help before any setting: his game's
        seat = await Seat.filter(identity_id=row.identity_id, active=True,
                                 game__status__in=CURRENT).order_by(
                                     "-id").prefetch_related("game__chat").first()
        if seat is not None:
            return str(seat.game.chat.locale)
    if not row.private:
        chat = await Chat.get_or_none(platform=row.platform, ref=row.chat_ref)
        if chat is not None:
            return str(chat.locale)
    return "en"
