"""The `[telegram]` section of the configuration, declared and validated by the Telegram
plugin itself (see core/config.py's `AdapterSection`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, model_validator

from core.sections import AdapterSection, RateSettings, secret_from


class TelegramSection(AdapterSection):
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
    def _token(self) -> TelegramSection:
        self.token = secret_from(self.token, self.token_file, "token")
        if self.enabled and self.token is None:
            raise ValueError("token (or token_file) is required when telegram is enabled")
        return self
