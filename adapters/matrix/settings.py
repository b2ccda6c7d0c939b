"""The `[matrix]` section of the configuration, declared and validated by the Matrix plugin
itself (see core/config.py's `AdapterSection`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, model_validator

from core.sections import AdapterSection, RateSettings, secret_from


class MatrixSection(AdapterSection):
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
