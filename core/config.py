"""The one typed configuration: `nightfall.toml`, with every key overridable from the
environment (`NIGHTFALL_<SECTION>__<KEY>`, e.g. `NIGHTFALL_TELEGRAM__TOKEN`), validated at
start with errors that name the key. Secrets may also come from files (`token_file`,
`password_file`), as container secrets do. `deploy/nightfall.example.toml` documents every
key."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from core.service.games.deadline_times import PACES, valid_timezone


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _secret(value: SecretStr | None, path: Path | None, key: str) -> SecretStr | None:
    """A secret given directly wins; else it is read from its file (trailing newline cut)."""
    if value is not None and value.get_secret_value():
        return value
    if path is None:
        return None
    try:
        return SecretStr(path.read_text(encoding="utf-8").strip())
    except OSError as err:
        raise ValueError(f"{key}_file: cannot read {path}: {err.strerror}") from None


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


class RateSettings(Section):
    """Overrides of a platform's message rates (0 = unlimited)."""

    per_chat: float | None = Field(default=None, ge=0)
    per_group_minute: int | None = Field(default=None, ge=0)
    overall: float | None = Field(default=None, ge=0)


class TelegramSettingsSection(Section):
    enabled: bool = False
    token: SecretStr | None = None
    token_file: Path | None = None
    api_url: str | None = None  # another Bot API server, e.g. a local telegram-bot-api
    webhook_url: str | None = None  # set: webhook mode, else long polling
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = Field(default=8443, ge=1, le=65535)
    webhook_secret: SecretStr | None = None
    # seconds to wait for Telegram's answer to one call; a send that gets no answer in time
    # may still have arrived, so it is never sent again
    request_timeout: float = Field(default=10.0, gt=0)
    rates: RateSettings = RateSettings()

    @model_validator(mode="after")
    def _token(self) -> TelegramSettingsSection:
        self.token = _secret(self.token, self.token_file, "token")
        if self.enabled and self.token is None:
            raise ValueError("token (or token_file) is required when telegram is enabled")
        return self


class MatrixSettingsSection(Section):
    enabled: bool = False
    homeserver: str = "http://127.0.0.1:8008"
    user_id: str = ""
    password: SecretStr | None = None
    password_file: Path | None = None
    access_token: SecretStr | None = None
    access_token_file: Path | None = None
    device_id: str = "NIGHTFALL"
    store_path: Path = Path("matrix-store")
    # who may invite the bot into a room: "@user:server" or ":server"; [] = nobody yet
    allow: list[str] = Field(default_factory=list)
    encrypt_private: bool = False  # encrypted private rooms (players' clients may hide them)
    room_mentions: bool = True  # @room the vote's opening and results (if the power suffices)
    rates: RateSettings = RateSettings()

    @model_validator(mode="after")
    def _login(self) -> MatrixSettingsSection:
        self.password = _secret(self.password, self.password_file, "password")
        self.access_token = _secret(self.access_token, self.access_token_file, "access_token")
        if self.enabled:
            if not self.user_id.startswith("@") or ":" not in self.user_id:
                raise ValueError("user_id must look like @bot:example.org")
            if self.password is None and self.access_token is None:
                raise ValueError("password or access_token is required when matrix is enabled")
        return self


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
    telegram: TelegramSettingsSection = TelegramSettingsSection()
    matrix: MatrixSettingsSection = MatrixSettingsSection()
    http: HttpSettings = HttpSettings()
    log: LogSettings = LogSettings()

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The environment overrides the file (the file's values arrive as init values)."""
        return env_settings, init_settings


class ConfigError(Exception):
    """The configuration is not usable; the message names every bad key."""


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
        return Settings(**data)
    except ValidationError as err:
        problems = []
        for error in err.errors():
            key = ".".join(str(part) for part in error["loc"]) or "(top level)"
            message = str(error["msg"]).removeprefix("Value error, ")
            problems.append(f"{key}: {message}")
        raise ConfigError("\n".join(problems)) from None
