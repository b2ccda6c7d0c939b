"""`nightfall init`: the few questions a new host must answer — the platform, its token or
homeserver and account, who may invite the bot (Matrix), the database — then a login test
and a `nightfall.toml` that `check-config` accepts, with the secret in a file of its own
(0600, `secrets/` beside the configuration: /etc/nightfall/secrets for the systemd recipe,
under the names its drop-ins load: telegram_token, matrix_password, matrix_access_token).
Every question is also an option, so a script or a test answers without a terminal; nothing
is written when the platform refuses the login."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import click

TELEGRAM_API = "https://api.telegram.org/bot"


class LoginFailed(Exception):
    """The platform refused the credentials or could not be reached (the message says which)."""


@dataclass(frozen=True)
class Answers:
    platform: str  # telegram or matrix
    secret: str  # the bot token, or the Matrix account's password or access token
    database: str
    api_url: str | None = None  # Telegram: another Bot API server
    homeserver: str = ""
    user_id: str = ""
    allow: tuple[str, ...] = ()
    access_token: bool = False  # Matrix: the secret is an access token, not the password


def try_login(answers: Answers) -> str:
    """Who the bot is, as the platform says (`@name`); raises `LoginFailed`."""
    import httpx

    from core.redaction import hide, redact

    hide(answers.secret)
    try:
        if answers.platform == "telegram":
            url = f"{answers.api_url or TELEGRAM_API}{answers.secret}/getMe"
            response = httpx.get(url, timeout=15)
            if response.status_code in (401, 404):
                raise LoginFailed("Telegram refused the token: copy it again from @BotFather")
            response.raise_for_status()
            return f"@{response.json()['result']['username']}"
        server = answers.homeserver.rstrip("/")
        if answers.access_token:
            response = httpx.request(
                "GET", f"{server}/_matrix/client/v3/account/whoami", timeout=15,
                headers={"Authorization": f"Bearer {answers.secret}"})
            if response.status_code == 401:
                raise LoginFailed("the homeserver refused the access token")
            response.raise_for_status()
            return str(response.json()["user_id"])
        response = httpx.request(
            "POST", f"{server}/_matrix/client/v3/login", timeout=15,
            json={"type": "m.login.password", "password": answers.secret,
                  "identifier": {"type": "m.id.user", "user": answers.user_id},
                  "initial_device_display_name": "nightfall init"})
        if response.status_code == 403:
            raise LoginFailed(f"the homeserver refused the login of {answers.user_id}: check "
                              "the account and its password")
        response.raise_for_status()
        token = response.json()["access_token"]
        httpx.request("POST", f"{server}/_matrix/client/v3/logout", timeout=15,
                      headers={"Authorization": f"Bearer {token}"})  # this test's device only
        return str(response.json()["user_id"])
    except httpx.HTTPError as err:
        raise LoginFailed(redact(f"cannot reach {answers.platform}: {err}")) from None


def write_config(path: Path, answers: Answers) -> Path:
    """The configuration and its secret file; returns the secret file's path."""
    secrets = path.parent / "secrets"
    secrets.mkdir(mode=0o700, parents=True, exist_ok=True)
    name = ("telegram_token" if answers.platform == "telegram" else
            "matrix_access_token" if answers.access_token else "matrix_password")
    secret = secrets / name
    secret.touch(mode=0o600)
    secret.chmod(0o600)
    secret.write_text(answers.secret, encoding="utf-8")
    section: dict[str, object] = {"enabled": True}
    if answers.platform == "telegram":
        section["token_file"] = str(secret.resolve())
        if answers.api_url:
            section["api_url"] = answers.api_url
    else:
        key = "access_token_file" if answers.access_token else "password_file"
        section.update({"homeserver": answers.homeserver, "user_id": answers.user_id,
                        key: str(secret.resolve()), "allow": list(answers.allow)})
    lines = ["# written by `nightfall init`; every key: deploy/nightfall.example.toml",
             "[database]", f"url = {json.dumps(answers.database)}", "",
             f"[{answers.platform}]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in section.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")  # (JSON's strings are TOML's)
    path.chmod(0o640)
    return secret


def ask(answers: dict[str, object]) -> Answers:
    """Fill what the options left open by asking (a terminal, or lines piped in)."""
    platform = str(answers["platform"] or click.prompt(
        "Platform", type=click.Choice(["telegram", "matrix"]), default="telegram"))
    if platform == "telegram":
        secret = str(answers["token"] or click.prompt(
            "Bot token from @BotFather", hide_input=True))
        homeserver = user_id = ""
        allow: tuple[str, ...] = ()
        token = False
    else:
        homeserver = str(answers["homeserver"] or click.prompt(
            "Homeserver URL", default="https://matrix.org"))
        user_id = str(answers["user_id"] or click.prompt("Bot account (@bot:example.org)"))
        token = bool(answers["access_token"])
        secret = str(answers["access_token"] or answers["password"] or click.prompt(
            "Its password (Enter: give an access token instead)", hide_input=True,
            default="", show_default=False))
        if not secret:
            token = True
            secret = click.prompt("Its access token", hide_input=True)
        allow_text = str(answers["allow"] or click.prompt(
            "Who may invite the bot (@you:example.org or :example.org, comma-separated)"))
        allow = tuple(a.strip() for a in allow_text.split(",") if a.strip())
    database = str(answers["database"] or click.prompt(
        "Database (sqlite://FILE or postgres://USER:PASSWORD@HOST/DB)",
        default="sqlite://nightfall.sqlite3"))
    return Answers(platform, secret, database, answers["api_url"] or None,  # type: ignore[arg-type]
                   homeserver, user_id, allow, token)
