"""The one typed configuration: `nightfall.toml`, with every key overridable from the
environment (`NIGHTFALL_<SECTION>__<KEY>`, e.g. `NIGHTFALL_DATABASE__URL`), validated at
start with errors that name the key. Secrets may also come from files (`token_file`,
`password_file`, see `secret_from`), as container secrets do.
`deploy/nightfall.example.toml` documents every key.

The core's sections are declared here; each adapter plugin declares and validates its own
section, named after its platform (`AdapterSection`, see core/plugins.py), and
`settings_model` adds them, so that a platform in a package of its own is configured like
the ones shipped with Nightfall."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    Field,
    ValidationError,
    create_model,
    field_validator,
)
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from core.environment import HostEnvironment
from core.sections import AdapterSection, ConfigError, Section
from core.service.games.deadline_times import PACES, valid_timezone


class DatabaseSettings(Section):
    url: str = "sqlite://nightfall.sqlite3"
    start_timeout: float = Field(default=60.0, ge=0)  # seconds to wait for it at start

    @field_validator("url")
    @classmethod
    def _known_scheme(cls, url: str) -> str:
        if not url.startswith(("sqlite://", "postgres://", "postgresql://")):
            raise ValueError("must start with sqlite://, postgres:// or postgresql://")
        return url


class DefaultsSettings(Section):
    """What a new game starts with until its host changes it."""

    language: Literal["en", "de", "ru"] = "en"
    pace: str = "quick"
    timezone: str = "Europe/Berlin"
    # a game whose group the bot cannot write to (removed, silenced, topic closed) is
    # paused at once and cancelled after this many hours
    give_up_hours: float = Field(default=24.0, gt=0)
    # a player who leaves the game's chat while his game runs leaves the game when he is not
    # back within this many minutes (a misclick, a client that dropped him); 0: at once
    leave_grace_minutes: float = Field(default=5.0, ge=0)

    @field_validator("pace")
    @classmethod
    def _pace(cls, pace: str) -> str:
        if pace not in PACES:
            raise ValueError(f"must be one of {', '.join(PACES)}")
        return pace

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, timezone: str) -> str:
        if not valid_timezone(timezone):
            raise ValueError(f"{timezone!r} is not an IANA time zone like Europe/Berlin")
        return timezone


class HttpSettings(Section):
    """The health and metrics endpoint and the finished games' archive pages (off by
    default). `public_url` is where people reach this server (behind a proxy, say
    https://games.example.org): the end of a game links its page there; empty, no link."""

    enabled: bool = False
    listen: str = "127.0.0.1"
    port: int = Field(default=9464, ge=0, le=65535)
    public_url: str = ""


class LogSettings(Section):
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    format: Literal["json", "text"] = "json"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="NIGHTFALL_", env_nested_delimiter="__",
                                      extra="forbid")

    database: DatabaseSettings = DatabaseSettings()
    defaults: DefaultsSettings = DefaultsSettings()
    http: HttpSettings = HttpSettings()
    log: LogSettings = LogSettings()

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The environment overrides the file (the file's values arrive as init values);
        lists in it may be written `a,b,c` (core/environment.py)."""
        return HostEnvironment(settings_cls), init_settings

    def section(self, platform: str) -> AdapterSection | None:
        """An adapter plugin's section (None where this model has none for the platform)."""
        found = self.__dict__.get(platform)
        return found if isinstance(found, AdapterSection) else None


@cache
def settings_model() -> type[Settings]:
    """The core's sections and every installed adapter plugin's own."""
    from core.plugins import adapter_plugins

    sections: dict[str, Any] = {}
    for platform, plugin in adapter_plugins().items():
        if plugin.section is not None:
            model = plugin.section()
            sections[platform] = (model, Field(default_factory=model))
    return create_model("Settings", __base__=Settings, **sections)


def load_settings(path: Path | None) -> Settings:
    """Read and validate the configuration file (optional) plus the environment."""
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as err:
            raise ConfigError(f"{path}: {err.strerror}") from None
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"{path}: not valid TOML: {err}") from None
    try:
        return settings_model()(**data)
    except ValidationError as err:
        problems = []
        for error in err.errors():
            key = ".".join(str(part) for part in error["loc"]) or "(top level)"
            message = str(error["msg"]).removeprefix("Value error, ")
            problems.append(f"{key}: {message}")
        raise ConfigError("\n".join(problems)) from None
