"""`nightfall init` (issue 32, problem 4): a new host answers the few questions (here piped in,
as a terminal would), the login is tried against the (fake) Bot API, and the configuration it
writes is one `check-config` accepts, with the token in a 0600 file of its own and not in the
configuration; a refused token writes nothing."""

from __future__ import annotations

import asyncio
import stat

from click.testing import CliRunner

from core.cli import main
from core.config import load_settings


def init(*argv: str, answers: str = ""):
    return asyncio.to_thread(CliRunner().invoke, main, ["init", *argv], input=answers)


async def test_init_asks_tests_the_login_and_writes_a_valid_configuration(api, tmp_path):
    config = tmp_path / "etc" / "nightfall.toml"
    config.parent.mkdir()
    database = f"sqlite://{tmp_path / 'bot.sqlite3'}"
    result = await init("-o", str(config), "--api-url", api.base_url,
                        answers=f"telegram\n{api.token}\n{database}\n")
    assert result.exit_code == 0, result.output
    assert f"telegram: logged in as @{api.bot_username}" in result.output
    settings = load_settings(config)
    assert settings.telegram.enabled and settings.database.url == database
    assert settings.telegram.token is not None
    assert settings.telegram.token.get_secret_value() == api.token
    secret = config.parent / "secrets" / "telegram_token"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert api.token not in config.read_text(encoding="utf-8")
    assert api.token not in result.output  # the hidden prompt does not echo it
    checked = CliRunner().invoke(main, ["check-config", str(config)])
    assert checked.exit_code == 0 and "platforms: telegram" in checked.output
    again = await init("-o", str(config), "--platform", "telegram", "--token", api.token)
    assert again.exit_code == 1 and "--force" in again.output  # never overwritten unasked


async def test_a_refused_token_writes_nothing(api, tmp_path):
    config = tmp_path / "nightfall.toml"
    refused = "7715293846:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
    result = await init("-o", str(config), "--api-url", api.base_url, "--platform",
                        "telegram", "--token", refused, "--database", "sqlite://x.sqlite3")
    assert result.exit_code == 1
    assert "Telegram refused the token" in result.output and "nothing was written" in \
        result.output
    assert refused not in result.output
    assert not config.exists() and not (tmp_path / "secrets").exists()


def test_a_matrix_host_is_asked_for_the_account_and_who_may_invite(tmp_path, monkeypatch):
    """The questions and the file for Matrix (the login itself is tried against Synapse in
    the slow tier's Matrix tests; here it is stubbed)."""
    import core.init

    monkeypatch.setattr(core.init, "try_login", lambda answers: answers.user_id)
    config = tmp_path / "nightfall.toml"
    result = CliRunner().invoke(main, ["init", "-o", str(config)], input=(
        "matrix\nhttps://matrix.example.org\n@nightfall:example.org\nsecret-pw\n"
        "@me:example.org, :example.org\n\n"))
    assert result.exit_code == 0, result.output
    settings = load_settings(config)
    assert settings.matrix.enabled and settings.matrix.user_id == "@nightfall:example.org"
    assert settings.matrix.allow == ["@me:example.org", ":example.org"]
    assert settings.matrix.password is not None
    assert settings.matrix.password.get_secret_value() == "secret-pw"
    assert settings.database.url == "sqlite://nightfall.sqlite3"


def test_a_matrix_host_may_give_an_access_token_instead(tmp_path, monkeypatch):
    import core.init

    monkeypatch.setattr(core.init, "try_login", lambda answers: answers.user_id)
    config = tmp_path / "nightfall.toml"
    result = CliRunner().invoke(main, ["init", "-o", str(config)], input=(
        "matrix\nhttps://matrix.example.org\n@nightfall:example.org\n\nsyt_abc_def_123\n"
        ":example.org\npostgres://nightfall:pw@db/nightfall\n"))
    assert result.exit_code == 0, result.output
    settings = load_settings(config)
    assert settings.matrix.password is None and settings.matrix.access_token is not None
    assert settings.matrix.access_token.get_secret_value() == "syt_abc_def_123"
    assert (tmp_path / "secrets" / "matrix_access_token").exists()
    assert settings.database.url == "postgres://nightfall:pw@db/nightfall"
