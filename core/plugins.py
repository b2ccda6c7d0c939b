"""Finding adapters: the `nightfall.adapters` entry-point group, as rule sets are found
through `nightfall.rulesets`, so that a platform can ship as a package of its own.

An adapter package names an `AdapterPlugin` in its entry point. The plugin declares its own
configuration section (`[<platform>]`, validated by its own model, see core/config.py); the
core builds the adapters whose section enables them (`nightfall run`), lets a plugin forget a
person (`nightfall forget`) and adds its command-line commands; it never imports an
adapter's modules itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import click

if TYPE_CHECKING:
    from core.sections import AdapterSection
    from core.service import AdapterStore, PlatformAdapter

ADAPTER_ENTRY_POINTS = "nightfall.adapters"
S = TypeVar("S", bound="AdapterSection")


@dataclass(frozen=True)
class AdapterPlugin(Generic[S]):
    """What an adapter package contributes.

    `section()` returns the model of its configuration section, `[<platform>]` (a subclass of
    `core.sections.AdapterSection`: its keys, their defaults and checks; a function, so that
    the model and what it needs are imported when the configuration is read, not whenever
    the command line starts); `build(section)` makes its adapter from that section when it
    is enabled (import the platform library there, not at module level: the command line
    loads every plugin); `forget(store, ref)` drops what the adapter keeps about a person in
    its store; `commands` are added to the `nightfall` command line. A plugin without a
    section is never built by `nightfall run` (the console has commands of its own)."""

    platform: str
    section: Callable[[], type[S]] | None = None
    build: Callable[[S], PlatformAdapter] | None = None
    forget: Callable[[AdapterStore, str], Awaitable[None]] | None = None
    commands: tuple[click.Command, ...] = ()
    # `warnings(section)`: what a valid but risky section makes the bot do quietly, one line
    # each, naming the key (printed by `check-config`, logged by `run`)
    warnings: Callable[[S], list[str]] | None = None


@cache
def adapter_plugins() -> dict[str, AdapterPlugin[Any]]:
    """Platform → plugin, for every installed entry point of the group."""
    found: dict[str, AdapterPlugin[Any]] = {}
    for ep in entry_points(group=ADAPTER_ENTRY_POINTS):
        plugin = ep.load()
        if not isinstance(plugin, AdapterPlugin):
            raise TypeError(f"entry point {ep.value} is not an AdapterPlugin")
        found[plugin.platform] = plugin
    return found


class Sections(Protocol):
    """Where the plugins' sections are read: the configuration (`core.config.Settings`)."""

    def section(self, platform: str) -> AdapterSection | None: ...


def build_adapters(settings: Sections) -> list[PlatformAdapter]:
    """The adapters the configuration enables, in the order their platforms sort."""
    from core.sections import ConfigError  # pydantic: not on every start of the command line

    adapters = []
    configurable = []
    for platform, plugin in sorted(adapter_plugins().items()):
        section = settings.section(platform)
        if plugin.build is None or section is None:
            continue
        configurable.append(f"{platform}.enabled")
        if section.enabled:
            adapters.append(plugin.build(section))
    if not adapters:
        raise ConfigError(f"no platform is enabled: set {' or '.join(configurable)}")
    return adapters


def config_warnings(settings: Sections) -> list[str]:
    """The warnings of every enabled platform's section, its plugin's own checks."""
    lines = []
    for platform, plugin in sorted(adapter_plugins().items()):
        section = settings.section(platform)
        if plugin.warnings is not None and section is not None and section.enabled:
            lines.extend(plugin.warnings(section))
    return lines


async def forget_in_adapters(platform: str, ref: str) -> None:
    """Let the person's platform drop what its adapter keeps about him."""
    from core.service.rows.adapter_tables import TableStore

    plugin = adapter_plugins().get(platform)
    if plugin is not None and plugin.forget is not None:
        await plugin.forget(TableStore(platform), ref)
