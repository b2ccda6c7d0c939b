"""The Matrix adapter's entry in the `nightfall.adapters` group (see core/plugins.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.plugins import AdapterPlugin

from .cli import matrix

if TYPE_CHECKING:
    from core.service import AdapterStore, RateLimits

    from .adapter import MatrixAdapter
    from .settings import MatrixSection


def _section() -> type[MatrixSection]:
    from .settings import MatrixSection

    return MatrixSection


def _build(section: MatrixSection) -> MatrixAdapter:
    """The adapter for the `[matrix]` section: secrets unwrapped, rate overrides applied to
    Synapse's default."""
    from .adapter import MatrixAdapter
    from .settings import MatrixSettings

    password, token = section.password, section.access_token
    return MatrixAdapter(MatrixSettings(
        homeserver=section.homeserver, user_id=section.user_id,
        password=password.get_secret_value() if password else None,
        access_token=token.get_secret_value() if token else None,
        device_id=section.device_id or None, store_path=str(section.store_path),
        cross_signing_path=str(section.cross_signing_path or "") or None,
        encrypt_private=section.encrypt_private, allow=tuple(section.allow),
        room_mentions=section.room_mentions, limits=_limits(section)))


def _warnings(section: MatrixSection) -> list[str]:
    """An empty `allow` list; rates too slow for the quick pace (warnings.py)."""
    from .warnings import allow_warning, installed_tables, rate_warnings

    found = allow_warning(section.allow)
    return ([found] if found else []) + rate_warnings(_limits(section), installed_tables())


def _limits(section: MatrixSection) -> RateLimits:
    """Synapse's default rate limit with the section's overrides."""
    from dataclasses import replace

    from .settings import LIMITS

    rates = {k: v for k, v in section.rates.model_dump().items() if v is not None}
    return replace(LIMITS, **rates)


async def _forget(store: AdapterStore, user_id: str) -> None:
    """The bot's map of private rooms names the person."""
    from .store import forget_user

    await forget_user(store, user_id)


PLUGIN: AdapterPlugin[MatrixSection] = AdapterPlugin(platform="matrix", section=_section,
                                                     build=_build, forget=_forget,
                                                     commands=(matrix,), warnings=_warnings)
