"""The role cards the bot deals (in English): how a test knows a player's opening message,
which is his role's card alone (a pony's with its kind)."""

from __future__ import annotations

from core.engine.registry import available, load_ruleset

CARDS = tuple(card for ruleset in sorted(available())
              for card in load_ruleset(ruleset).vocabulary.get("dealt", {}).values())


def is_role_card(text: str) -> bool:
    """Whether a text the bot sent opens with a role card."""
    return text.startswith(CARDS)


def has_role_card(text: str) -> bool:
    """Whether a longer text (a recap, a replaced seat's story) holds a role card."""
    return any(card in text for card in CARDS)
