"""The `[matrix]` section of the configuration, declared and validated by the Matrix plugin
itself (see core/config.py's `AdapterSection`), and the settings the adapter and its parts
run with (`MatrixSettings`, built from it by plugin.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field, SecretStr, model_validator

from core.sections import AdapterSection, RateSettings, secret_from
from core.service import RateLimits

# Synapse's default `rc_message`: 0.2 messages a second per account, edits included, bursts
# of ten (eight here: our count of a send starts with it, Synapse's when it arrives); exempt
# the bot with the admin API's override_ratelimit and raise this in the settings.
LIMITS = RateLimits(overall=0.2, overall_burst=8)


@dataclass(frozen=True)
class MatrixSettings:
    homeserver: str  # https://matrix.example.org
    user_id: str  # @nightfall:example.org
    password: str | None = None
    access_token: str | None = None
    device_id: str | None = None  # else the one of the first password login, remembered
    device_name: str = "Nightfall"
    store_path: str | None = None  # nio's key store: keep it as long as the device id
    encryption: bool = True  # read and write encrypted rooms (needs the store_path)
    # the private cross-signing keys (client/cross_signing.py); None: beside the store_path
    cross_signing_path: str | None = None
    encrypt_private: bool = False  # the host wants private rooms encrypted (see client/rooms.py)
    allow: tuple[str, ...] = ()  # who may invite the bot: "@user:server" or ":server"; none
    key_wait: float = 60.0  # seconds an undecryptable event waits for its key, then is told
    invite_wait: float = 600.0  # seconds until a player is reminded of his private room
    sync_timeout: float = 30.0  # seconds a long-poll sync waits for news
    timeline_limit: int = 50  # events per room per sync; more is fetched from /messages
    notices: bool = True  # answer a private choice ("noted", or why not) in the room
    # `@room` the vote's opening and the results, where the room's power levels let the bot
    # (`notifications.room`, 50 by default): else they notify as plain messages do
    room_mentions: bool = True
    limits: RateLimits = field(default=LIMITS)


class MatrixSection(AdapterSection):
    homeserver: str = "http://127.0.0.1:8008"
    user_id: str = ""
    password: SecretStr | None = None
    password_file: Path | None = None
    access_token: SecretStr | None = None
    access_token_file: Path | None = None
    device_id: str = "NIGHTFALL"
    store_path: Path = Path("matrix-store")
    # the private cross-signing keys, kept apart from the store; unset: beside it, as
    # `<store_path>.cross-signing.json`
    cross_signing_path: Path | None = None
    # who may invite the bot into a room: "@user:server" or ":server"; [] = nobody yet
    allow: list[str] = Field(default_factory=list)
    encrypt_private: bool = False  # encrypted private rooms (players' clients may hide them)
    room_mentions: bool = True  # @room the vote's opening and results (if the power suffices)
    rates: RateSettings = RateSettings()

    @model_validator(mode="after")
    def _login(self) -> MatrixSection:
        self.password = secret_from(self.password, self.password_file, "password")
        self.access_token = secret_from(self.access_token, self.access_token_file,
                                        "access_token")
        if self.enabled:
            if not self.user_id.startswith("@") or ":" not in self.user_id:
                raise ValueError("user_id must look like @bot:example.org")
            if self.password is None and self.access_token is None:
                raise ValueError("password or access_token is required when matrix is enabled")
        return self
