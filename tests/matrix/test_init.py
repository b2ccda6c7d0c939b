"""`nightfall init` for a Matrix host against a real Synapse (issue 32): the login the host's
answers describe is tried on the homeserver, and only a login it accepts writes the
configuration. A good password writes a `nightfall.toml` that `check-config` accepts (and
the test login leaves no device behind); a refused password, or an access token the server
does not know, writes nothing."""

from __future__ import annotations

import asyncio
import json
import urllib.request

from click.testing import CliRunner

from core.cli import main
from core.config import load_settings


def init(*argv: str):
    return asyncio.to_thread(CliRunner().invoke, main, ["init", *argv])


def devices(synapse, user) -> list[str]:
    request = urllib.request.Request(f"{synapse.url}/_matrix/client/v3/devices", headers={
        "Authorization": f"Bearer {user['access_token']}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return [d["device_id"] for d in json.load(response)["devices"]]


async def test_a_good_password_logs_in_and_writes_a_valid_configuration(synapse, register,
                                                                       tmp_path):
    bot = register("Nightfall")
    before = devices(synapse, bot)
    config = tmp_path / "nightfall.toml"
    result = await init("-o", str(config), "--platform", "matrix", "--homeserver", synapse.url,
                        "--user-id", bot["user_id"], "--password", bot["password"],
                        "--allow", ":localhost", "--database",
                        f"sqlite://{tmp_path / 'bot.sqlite3'}")
    assert result.exit_code == 0, result.output
    assert f"matrix: logged in as {bot['user_id']}" in result.output
    assert bot["password"] not in result.output
    settings = load_settings(config)
    assert settings.matrix.enabled and settings.matrix.homeserver == synapse.url
    assert settings.matrix.user_id == bot["user_id"] and settings.matrix.allow == [":localhost"]
    assert settings.matrix.password is not None
    assert settings.matrix.password.get_secret_value() == bot["password"]
    assert devices(synapse, bot) == before  # the test login logged out again
    checked = CliRunner().invoke(main, ["check-config", str(config)])
    assert checked.exit_code == 0 and "platforms: matrix" in checked.stdout


async def test_an_access_token_is_checked_with_whoami(synapse, register, tmp_path):
    bot = register("Nightfall")
    config = tmp_path / "nightfall.toml"
    result = await init("-o", str(config), "--platform", "matrix", "--homeserver", synapse.url,
                        "--user-id", bot["user_id"], "--access-token", bot["access_token"],
                        "--allow", ":localhost", "--database", "sqlite://x.sqlite3")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "secrets" / "matrix_access_token").read_text(encoding="utf-8") == \
        bot["access_token"]


async def test_a_refused_password_or_token_writes_nothing(synapse, register, tmp_path):
    bot = register("Nightfall")
    config = tmp_path / "nightfall.toml"
    wrong = "not-" + bot["password"]
    refused = await init("-o", str(config), "--platform", "matrix", "--homeserver",
                         synapse.url, "--user-id", bot["user_id"], "--password", wrong,
                         "--allow", ":localhost", "--database", "sqlite://x.sqlite3")
    assert refused.exit_code == 1
    assert f"the homeserver refused the login of {bot['user_id']}" in refused.output
    assert "nothing was written" in refused.output and wrong not in refused.output
    unknown = await init("-o", str(config), "--platform", "matrix", "--homeserver",
                         synapse.url, "--user-id", bot["user_id"], "--access-token",
                         "syt_not_a_token", "--allow", ":localhost", "--database",
                         "sqlite://x.sqlite3")
    assert unknown.exit_code == 1 and "refused the access token" in unknown.output
    assert not config.exists() and not (tmp_path / "secrets").exists()
