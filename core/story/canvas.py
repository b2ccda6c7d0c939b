"""Drawing helpers for the story's picture: the bundled fonts (DejaVu Sans, which covers
Latin with umlauts and Cyrillic; it has no emoji, which show as its placeholder box), text
fitted to a width, and arrows."""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONTS = Path(__file__).resolve().parent / "fonts"
# Joiners, variation selectors and skin-tone modifiers carry no glyph of their own: without
# them (and without what a joiner adds) an emoji sequence shows as one placeholder box
# instead of several.
INVISIBLE = re.compile("\u200d.|[\ufe0e\ufe0f\U0001f3fb-\U0001f3ff]")

INK = (34, 34, 34)
MUTED = (110, 110, 110)
PAPER = (253, 252, 248)
NIGHT_SHADE = (232, 235, 245)
OUT_RED = (200, 40, 40)
SIDE_COLOURS = [(78, 121, 167), (225, 87, 89), (242, 142, 43), (89, 161, 79), (176, 122, 161),
                (118, 183, 178), (156, 117, 95), (237, 201, 72), (255, 157, 167)]


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")),
                              size)


def clean(text: str) -> str:
    return INVISIBLE.sub("", text)


def fitted(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont,
           width: float) -> str:
    """The text, cut with an ellipsis where it would be wider than `width`."""
    text = clean(text)
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def arrow(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float],
          colour: tuple[int, int, int], width: int = 3, head: float = 14) -> None:
    """A line from `start` to `end` with a filled head at `end`."""
    draw.line([start, end], fill=colour, width=width)
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    left = (end[0] - head * math.cos(angle - 0.4), end[1] - head * math.sin(angle - 0.4))
    right = (end[0] - head * math.cos(angle + 0.4), end[1] - head * math.sin(angle + 0.4))
    draw.polygon([end, left, right], fill=colour)
