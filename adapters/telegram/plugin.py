"""The Telegram adapter's entry in the `nightfall.adapters` group (see core/plugins.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from core.plugins import AdapterPlugin

if TYPE_CHECKING:
    from .adapter import TelegramAdapter
    from .settings import TelegramSection


def _section() -> type[TelegramSection]:
    from .settings import TelegramSection

    return TelegramSection


def _build(section: TelegramSection) -> TelegramAdapter:
    """The adapter for the `[telegram]` section: Telegram's own rate limits, with what the
    host configured instead."""
    from .adapter import LIMITS, TelegramAdapter, TelegramSettings

    assert section.token is not None  # the section's check requires it when enabled
    overrides = {k: v for k, v in section.rates.model_dump().items() if v is not None}
    secret = section.webhook_secret
    return TelegramAdapter(TelegramSettings(
        token=section.token.get_secret_value(), base_url=section.api_url,
        webhook_url=section.webhook_url, webhook_listen=section.webhook_listen,
        webhook_port=section.webhook_port,
        webhook_secret=secret.get_secret_value() if secret else None,
        request_timeout=section.request_timeout,
        limits=replace(LIMITS, **overrides)))


PLUGIN: AdapterPlugin[TelegramSection] = AdapterPlugin(platform="telegram", section=_section,
                                                       build=_build)
