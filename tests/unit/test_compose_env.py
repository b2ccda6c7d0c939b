"""Docker Compose with a `.env` (issue 32, problem 4): compose.yaml takes the database password
and the platforms from deploy/.env (env.example is the template), every variable it needs is
there, and what reaches the bot is a valid configuration for a Telegram host and for a
Matrix-only one (no Telegram token). Parsed with `docker compose config` where Compose is
installed, else with YAML and python-dotenv and Compose's `${VAR:?message}` rules."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from dotenv import dotenv_values

from core.config import load_settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
VARIABLE = re.compile(r"\$\{(\w+)(?::?([?-])([^}]*))?\}")


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's interpolation: `${VAR}`, `${VAR:-default}`, `${VAR:?error}`."""
    def value(match: re.Match[str]) -> str:
        name, kind, rest = match[1], match[2], match[3]
        if env.get(name):
            return env[name]
        if kind == "?":
            raise AssertionError(f"{name} is not set: {rest}")
        return rest or ""
    return VARIABLE.sub(value, text)


def has_compose() -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "compose", "version"], capture_output=True,
                          check=False).returncode == 0


def composed(folder: Path) -> dict:
    if has_compose():
        done = subprocess.run(["docker", "compose", "-f", str(folder / "compose.yaml"),
                               "config", "--format", "json"], capture_output=True, text=True,
                              check=True)
        return yaml.safe_load(done.stdout)
    env = {k: v for k, v in dotenv_values(folder / ".env").items() if v is not None}
    compose = yaml.safe_load(interpolate((folder / "compose.yaml").read_text("utf-8"), env))
    bot = compose["services"]["nightfall"]
    files = bot.get("env_file", [])
    for name in [files] if isinstance(files, str) else files:
        bot["environment"] = {**env_of(folder / name), **bot.get("environment", {})}
    return compose


def env_of(path: Path) -> dict[str, str]:
    return {k: v for k, v in dotenv_values(path).items() if v is not None}


@pytest.fixture
def folder(tmp_path):
    """deploy/ as a host has it: compose.yaml, nightfall.toml from the example, .env."""
    for name in ("compose.yaml", "Dockerfile"):
        shutil.copy(DEPLOY / name, tmp_path / name)
    shutil.copy(DEPLOY / "nightfall.example.toml", tmp_path / "nightfall.toml")
    return tmp_path


def bot_settings(compose: dict, folder: Path, monkeypatch):
    for key, value in compose["services"]["nightfall"]["environment"].items():
        if key.startswith("NIGHTFALL_"):
            monkeypatch.setenv(key, str(value))
    return load_settings(folder / "nightfall.toml")


def test_env_example_configures_a_telegram_host(folder, monkeypatch):
    shutil.copy(DEPLOY / "env.example", folder / ".env")
    compose = composed(folder)
    db, bot = compose["services"]["db"], compose["services"]["nightfall"]
    assert db["environment"]["POSTGRES_PASSWORD"] == "change-me"
    assert bot["environment"]["NIGHTFALL_DATABASE__URL"] == \
        "postgres://nightfall:change-me@db:5432/nightfall"
    settings = bot_settings(compose, folder, monkeypatch)
    assert settings.telegram.enabled and not settings.matrix.enabled
    assert "secrets" not in compose  # no secret file a host must create by hand


def test_a_matrix_only_host_needs_no_telegram_token(folder, monkeypatch):
    lines = []
    for line in (DEPLOY / "env.example").read_text("utf-8").splitlines():
        if line.startswith("NIGHTFALL_TELEGRAM__"):
            continue
        lines.append(line.removeprefix("#") if line.startswith("#NIGHTFALL_MATRIX") else line)
    (folder / ".env").write_text("\n".join(lines) + "\n", encoding="utf-8")
    settings = bot_settings(composed(folder), folder, monkeypatch)
    assert settings.matrix.enabled and not settings.telegram.enabled
    assert settings.matrix.allow == ["@you:example.org", ":example.org"]
    assert settings.matrix.password is not None


def test_without_a_database_password_compose_says_what_to_set(folder):
    (folder / ".env").write_text("NIGHTFALL_TELEGRAM__ENABLED=true\n", encoding="utf-8")
    with pytest.raises((AssertionError, subprocess.CalledProcessError)) as err:
        composed(folder)
    message = str(err.value) + getattr(err.value, "stderr", "")
    assert "POSTGRES_PASSWORD" in message
