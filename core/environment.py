"""The `NIGHTFALL_*` environment as a configuration source, in the forms a host writes.

pydantic-settings reads a list or a table from one variable as JSON only, and a value that
is not JSON ends in a 60-line traceback. Here a list also takes the documented `a,b,c` form
(`NIGHTFALL_MATRIX__ALLOW=@me:example.org,:example.org`), JSON is still accepted, and a value
that is neither is a `ConfigError` naming the variable and the form it expects, in one line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_origin

from pydantic.fields import FieldInfo
from pydantic_settings import EnvSettingsSource

from core.sections import ConfigError

_LISTS = (list, tuple, set, frozenset)


class BadVariable(ValueError):
    """A complex value that is neither JSON nor the list form; the variable is named later."""

    def __init__(self, key: str, expected: str) -> None:
        super().__init__(key)
        self.key = key
        self.expected = expected


def _is_list(field: FieldInfo | None) -> bool:
    kind = field.annotation if field is not None else None
    return kind in _LISTS or get_origin(kind) in _LISTS


def split_list(value: str) -> list[str]:
    """`a, b,c` → ["a", "b", "c"]; empty items are dropped (a trailing comma is harmless)."""
    return [item.strip() for item in value.split(",") if item.strip()]


class HostEnvironment(EnvSettingsSource):
    """`EnvSettingsSource` that reads lists as `a,b,c` or JSON and names a bad variable."""

    def decode_complex_value(self, field_name: str, field: FieldInfo, value: Any) -> Any:
        try:
            return super().decode_complex_value(field_name, field, value)
        except ValueError:
            if _is_list(field):
                if str(value).lstrip().startswith("["):  # meant as JSON, and broken
                    raise BadVariable(field_name, 'a,b,c or a JSON list ["a", "b"]') from None
                return split_list(str(value))
            raise BadVariable(field_name, "a JSON object, e.g. {\"key\": 1}, or one variable "
                                          "per key (…__KEY=1)") from None

    def __call__(self) -> dict[str, Any]:
        try:
            return super().__call__()
        except BadVariable as bad:
            raise ConfigError(f"{self._variable(bad.key)}: not understood; expected "
                              f"{bad.expected}") from None
        except Exception as err:  # SettingsError wraps our BadVariable
            cause = err.__cause__ or err.__context__
            if isinstance(cause, BadVariable):
                raise ConfigError(f"{self._variable(cause.key)}: not understood; expected "
                                  f"{cause.expected}") from None
            raise

    def _variable(self, key: str) -> str:
        """The environment variable a bad value came from (its last part is `key`)."""
        names: Mapping[str, str | None] = self.env_vars
        suffixes = (f"{self.env_prefix}{key}".lower(), f"__{key}".lower())
        for name in names:
            if name.lower().endswith(suffixes):
                return name.upper()
        return f"NIGHTFALL_…__{key.upper()}"

