"""Platform words from the platform (issue 27, problem 4): what a person is told to do — join,
open the private chat, give the bot a right, name a newcomer — is the adapter's own text for
that topic, in every language, rendered where the adapter is known. A Matrix player is never
told to press a button and then Start; a Telegram player is never told to accept an
invitation; a Matrix host never hears of the right to ban users."""

from __future__ import annotations

import pytest

from adapters.console.adapter import ConsoleAdapter
from adapters.matrix.adapter import MatrixAdapter
from adapters.telegram.adapter import TelegramAdapter
from core.i18n import translations
from core.service import HowTo
from core.service.delivery.rendering import game_renderer, render_text
from core.service.messages import outbox, texts
from core.service.messages.payloads import KeyboardPayload, post, to_json
from core.service.ports.howto import Wording, howto
from core.service.rows import pending
from core.storage.models import Identity, Outbox

from .helpers import open_chat, the_game

ADAPTERS = {"telegram": TelegramAdapter, "matrix": MatrixAdapter, "console": ConsoleAdapter}
LOCALES = ("en", "de", "ru")
# Telegram's steps in each language: its button, its Start, its admin's right to ban
BUTTON = ("button", "Start", "Knopf", "Starten", "кнопк", "Запуст")
BAN = ("ban", "Admin", "sperren", "админ", "блокир")
# Matrix's: an invitation to a room, a power level
INVITE = ("invit", "Einladung", "einlad", "приглаш", "приглас")
POWER = ("power level", "Berechtigungsstufe", "уровень прав")


@pytest.mark.parametrize("platform", ADAPTERS)
def test_every_adapter_says_every_howto_in_german_and_russian(platform):
    words = ADAPTERS[platform].wording
    assert set(words.howto) == set(HowTo)
    for topic, msgid in words.howto.items():
        for locale in ("de", "ru"):
            said = translations(locale).gettext(msgid)
            assert said != msgid, f"{platform} {topic} is not translated into {locale}"


async def said(game_id: int, words: Wording, locale: str, payload: KeyboardPayload) -> str:
    return render_text(await game_renderer(game_id, locale, words), payload.parts)


async def test_the_open_private_chat_and_the_mute_rights_are_each_platforms_own(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", "Bob: /join")
    row = await the_game()
    bob = await Identity.get(name="Bob")
    closed = await Outbox.create(game=row, platform="console", chat_ref=bob.ref, private=True,
                                 identity=bob, status="unreachable",
                                 payload=to_json(post(texts.JOINED_PRIVATE)))
    await outbox.tell_group_unreachable(closed)
    await pending.flush()
    asked = outbox.stored(await Outbox.filter(game_id=row.id, private=False).order_by("-id")
                          .first())
    assert isinstance(asked, KeyboardPayload)
    muting = post(texts.CANNOT_MUTE, chat="Pony Club", how=howto(HowTo.MUTE_RIGHTS))
    for locale in LOCALES:
        on_matrix = await said(row.id, MatrixAdapter.wording, locale, asked)
        on_telegram = await said(row.id, TelegramAdapter.wording, locale, asked)
        assert on_matrix.startswith("Bob") and on_telegram.startswith("Bob")
        assert not any(word in on_matrix for word in BUTTON), on_matrix
        assert any(word in on_matrix for word in INVITE) and "1️⃣" in on_matrix, on_matrix
        assert any(word in on_telegram for word in BUTTON), on_telegram
        assert not any(word in on_telegram for word in INVITE), on_telegram

        on_matrix = await said(row.id, MatrixAdapter.wording, locale, muting)
        on_telegram = await said(row.id, TelegramAdapter.wording, locale, muting)
        assert not any(word in on_matrix for word in BAN), on_matrix
        assert any(word in on_matrix for word in POWER), on_matrix
        assert any(word in on_telegram for word in BAN), on_telegram


async def test_a_text_naming_a_howto_the_platform_lacks_is_not_said(db_url):
    """A platform without the topic's text fails the message (it is never told with another
    platform's steps, nor with an empty gap)."""
    await open_chat(db_url)
    renderer = await game_renderer(None, "en", Wording("/", {}))
    with pytest.raises(LookupError):
        renderer.text(texts.NEWCOMER_UNKNOWN, {"name": "Zoe",
                                               "how": howto(HowTo.NAME_NEWCOMER)})
