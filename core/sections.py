"""The parts of the configuration that adapter plugins build their own sections from:
below both the configuration (`core/config.py`), which gathers every plugin's section, and
the plugins (`core/plugins.py`), so that neither imports the other."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


def secret_from(value: SecretStr | None, path: Path | None, key: str) -> SecretStr | None:
    """A secret given directly wins; else it is read from its file (trailing newline cut)."""
    if value is not None and value.get_secret_value():
        return value
    if path is None:
        return None
    try:
        return SecretStr(path.read_text(encoding="utf-8").strip())
    except OSError as err:
        raise ValueError(f"{key}_file: cannot read {path}: {err.strerror}") from None


class RateSettings(Section):
    """Overrides of a platform's message rates (0 = unlimited)."""

    per_chat: float | None = Field(default=None, ge=0)
    per_group_minute: int | None = Field(default=None, ge=0)
    overall: float | None = Field(default=None, ge=0)
    chat_burst: int | None = Field(default=None, ge=1)
    overall_burst: int | None = Field(default=None, ge=1)


class AdapterSection(Section):
    """An adapter plugin's own section, `[<platform>]`: the plugin declares its keys and
    validates them (a subclass of this); `enabled` turns the platform on for `nightfall run`."""

    enabled: bool = False


class ConfigError(Exception):
    """The configuration is not usable; the message names every bad key."""
