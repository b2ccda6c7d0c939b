"""The Matrix adapter's entry in the `nightfall.adapters` group (see core/plugins.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.plugins import AdapterPlugin

if TYPE_CHECKING:
    from core.config import Settings
    from core.service import AdapterStore, PlatformAdapter


def _enabled(settings: Settings) -> bool:
    return settings.matrix.enabled


def _build(settings: Settings) -> PlatformAdapter:
    from .adapter import matrix_adapter_from

    return matrix_adapter_from(settings.matrix)


async def _forget(store: AdapterStore, user_id: str) -> None:
    """The bot's map of private rooms names the person."""
    from .store import forget_user

    await forget_user(store, user_id)


PLUGIN = AdapterPlugin(platform="matrix", enabled=_enabled, build=_build, forget=_forget)
