"""`nightfall matrix cross-sign`: the one-time step of a bot that logs in with an access token
alone, when its homeserver asks for the password before it takes the bot's cross-signing keys
(see client/cross_signing.py). The password is asked for here, used for that one request and
kept nowhere; the keys land in the same file the bot reads at its next start."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from .settings import MatrixSection


@click.group()
def matrix() -> None:
    """Matrix chores of the host."""


@matrix.command("cross-sign")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False,
                                                          path_type=Path),
              default=None, help="nightfall.toml (keys may also come from NIGHTFALL_* variables).")
def cross_sign(config_path: Path | None) -> None:
    """Publish the bot's cross-signing keys and sign its device, with its password."""
    import asyncio
    import logging

    from core.config import load_settings
    from core.sections import ConfigError

    from .settings import MatrixSection

    try:
        section = load_settings(config_path).section("matrix")
    except ConfigError as err:
        raise click.ClickException(f"configuration:\n{err}") from None
    if not isinstance(section, MatrixSection) or not section.enabled:
        raise click.ClickException("the [matrix] section is not enabled")
    if section.password is None:
        password = click.prompt(f"Password of {section.user_id}", hide_input=True)
    else:
        password = section.password.get_secret_value()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    click.echo(asyncio.run(run(section, password)))


async def run(section: MatrixSection, password: str) -> str:
    """Log in as the bot runs (token, or password), then do what a start does."""
    from nio import AsyncClient, LoginResponse, WhoamiResponse

    from .client.cross_signing import CrossSigning, KeyFile, Standing, key_file_path

    path = key_file_path(str(section.store_path), str(section.cross_signing_path or "") or None)
    assert path is not None
    client = AsyncClient(section.homeserver, section.user_id)
    try:
        if section.access_token is not None:
            token = section.access_token.get_secret_value()
            client.access_token = token
            who = await client.whoami()
            if not isinstance(who, WhoamiResponse) or not who.device_id:
                raise click.ClickException(f"the access token was refused: {who}")
            client.restore_login(section.user_id, who.device_id, token)
        else:
            login = await client.login(password, device_name="Nightfall",
                                       device_id=section.device_id or None)
            if not isinstance(login, LoginResponse):
                raise click.ClickException(f"the login was refused: {login}")
        standing = await CrossSigning(client, KeyFile(path), password).ensure()
    finally:
        await client.close()
    if standing is not Standing.SIGNED:
        raise click.ClickException(f"not cross-signed: {standing.value} (see the log above)")
    return (f"{section.user_id}'s device {client.device_id} is cross-signed; the private keys "
            f"are in {path}")
