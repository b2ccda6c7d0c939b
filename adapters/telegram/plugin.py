"""The Telegram adapter's entry in the `nightfall.adapters` group (see core/plugins.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from core.plugins import AdapterPlugin

if TYPE_CHECKING:
    from core.config import Settings

    from .adapter import TelegramAdapter


def _enabled(settings: Settings) -> bool:
    return settings.telegram.enabled


def _build(settings: Settings) -> TelegramAdapter:
    """The adapter for the `[telegram]` section: Telegram's own rate limits, with what the
    host configured instead."""
    from .adapter import LIMITS, TelegramAdapter, TelegramSettings

    tg = settings.telegram
    assert tg.token is not None
    overrides = {k: v for k, v in tg.rates.model_dump().items() if v is not None}
    return TelegramAdapter(TelegramSettings(
        token=tg.token.get_secret_value(), base_url=tg.api_url,
        webhook_url=tg.webhook_url, webhook_listen=tg.webhook_listen,
        webhook_port=tg.webhook_port,
        webhook_secret=tg.webhook_secret.get_secret_value() if tg.webhook_secret else None,
        request_timeout=tg.request_timeout,
        limits=replace(LIMITS, **overrides)))


PLUGIN = AdapterPlugin(platform="telegram", enabled=_enabled, build=_build)
