"""Finding adapters: the `nightfall.adapters` entry-point group, as rule sets are found
through `nightfall.rulesets`, so that a platform can ship as a package of its own.

An adapter package names an `AdapterPlugin` in its entry point. The core builds the enabled
adapters from it (`nightfall run`), lets it forget a person (`nightfall forget`) and adds its
command-line commands; it never imports an adapter's modules itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from core.config import Settings
    from core.service import AdapterStore, PlatformAdapter

ADAPTER_ENTRY_POINTS = "nightfall.adapters"


@dataclass(frozen=True)
class AdapterPlugin:
    """What an adapter package contributes.

    `enabled(settings)` says whether the configuration turns the platform on, `build(settings)`
    makes its adapter (import the platform library there, not at module level: the command
    line loads every plugin); `forget(store, ref)` drops what the adapter keeps about a
    person in its store; `commands` are added to the `nightfall` command line."""

    platform: str
    enabled: Callable[[Settings], bool]
    build: Callable[[Settings], PlatformAdapter] | None = None
    forget: Callable[[AdapterStore, str], Awaitable[None]] | None = None
    commands: tuple[click.Command, ...] = ()


@cache
def adapter_plugins() -> dict[str, AdapterPlugin]:
    """Platform → plugin, for every installed entry point of the group."""
    found: dict[str, AdapterPlugin] = {}
    for ep in entry_points(group=ADAPTER_ENTRY_POINTS):
        plugin = ep.load()
        if not isinstance(plugin, AdapterPlugin):
            raise TypeError(f"entry point {ep.value} is not an AdapterPlugin")
        found[plugin.platform] = plugin
    return found


def build_adapters(settings: Settings) -> list[PlatformAdapter]:
    """The adapters the configuration enables, in the order their platforms sort."""
    from core.config import ConfigError

    adapters = [plugin.build(settings) for _, plugin in sorted(adapter_plugins().items())
                if plugin.build is not None and plugin.enabled(settings)]
    if not adapters:
        raise ConfigError("no platform is enabled: set telegram.enabled or matrix.enabled")
    return adapters


async def forget_in_adapters(platform: str, ref: str) -> None:
    """Let the person's platform drop what its adapter keeps about him."""
    from core.service.rows.adapter_tables import TableStore

    plugin = adapter_plugins().get(platform)
    if plugin is not None and plugin.forget is not None:
        await plugin.forget(TableStore(platform), ref)
