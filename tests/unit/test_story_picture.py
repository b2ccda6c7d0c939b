"""The story's picture: a PNG the platforms accept (Telegram: width plus height at most
10,000, sides at most 20 to 1, at most 10 MB) for the longest games, drawn with a font that has
the players' letters."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from core.engine.registry import load_ruleset
from core.simulate import play_random_game
from core.story import story_of
from core.story.canvas import clean, font
from core.story.picture import png


def glyph(text: str) -> bytes:
    return bytes(font(40).getmask(text))


@pytest.mark.parametrize("ruleset", ["changelings", "alchemists"])
@pytest.mark.parametrize("locale", ["en", "de", "ru"])
def test_a_twenty_player_game_makes_a_picture_telegram_accepts(ruleset: str,
                                                               locale: str) -> None:
    story = story_of(play_random_game(load_ruleset(ruleset), 20, 4))
    story.players[0].name = "Наташа 🦄"
    story.players[1].name = "Jürgen Größe"
    data = png(story, locale)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    width, height = image.size
    assert width >= 1080 and width + height <= 10_000 and max(width, height) / min(width,
                                                                                  height) <= 20
    assert len(data) < 10 * 1024 * 1024


def test_the_bundled_font_has_cyrillic_and_umlauts_and_boxes_only_emoji() -> None:
    placeholder = glyph("\U000f0000")  # a private-use character no font has
    for letter in ("Ж", "ё", "ä", "ß", "Ł"):
        assert glyph(letter) != placeholder, letter
    assert glyph("🦄") == placeholder  # emoji show as the placeholder box


def test_an_emoji_sequence_shows_as_one_placeholder() -> None:
    assert clean("Björn 👩\u200d🚀\ufe0f") == "Björn 👩"
    assert clean("👍🏽") == "👍"
