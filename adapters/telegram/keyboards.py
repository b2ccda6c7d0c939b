"""Inline keyboards from the service's buttons, inside Telegram's limits (≤ 8 per row,
≤ 100 in all, callback data ≤ 64 bytes)."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.helpers import create_deep_linked_url

from core.service import ButtonOut

MAX_BUTTONS = 100
MAX_ROW = 8
SHORT_LABEL = 12  # names this short sit three to a row; longer labels get two or one


def per_row(labels: Sequence[str]) -> int:
    longest = max((len(label) for label in labels), default=0)
    return 3 if longest <= SHORT_LABEL else 2 if longest <= 2 * SHORT_LABEL else 1


def keyboard(buttons: Sequence[ButtonOut], bot_username: str) -> InlineKeyboardMarkup | None:
    """Buttons in rows; a `start` button becomes a deep link that opens the private chat with
    the bot and presses the button there (a bot may not write to someone who never started
    it). The last button (Pass, Withdraw, Leave) gets a row of its own when it is one of many.
    """
    if not buttons:
        return None
    shown = list(buttons[:MAX_BUTTONS])
    cells = [InlineKeyboardButton(b.label, url=create_deep_linked_url(bot_username, b.token))
             if b.start else InlineKeyboardButton(b.label, callback_data=b.token)
             for b in shown]
    tail = [cells.pop()] if len(cells) > 3 else []
    width = min(MAX_ROW, per_row([b.label for b in shown]))
    rows = [cells[i:i + width] for i in range(0, len(cells), width)]
    if tail:
        rows.append(tail)
    return InlineKeyboardMarkup(rows)
