"""The `nightfall` command line.

Every command imports what it needs when it runs: `nightfall --help` and the light commands
must not pay for the ORM, the platform libraries or even asyncio (tests/unit/test_startup.py
checks the import graph; bench/startup.py times it)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from core import __version__
from core.engine.registry import available, load_ruleset
from core.players import check_players, players_option
from core.plugins import Sections, adapter_plugins


@click.group()
@click.version_option(__version__, prog_name="nightfall")
def main() -> None:
    """Nightfall: a game-master bot for social-deduction games."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--show", is_flag=True, help="Print each scenario's rendered transcript.")
def scenario(paths: tuple[str, ...], show: bool) -> None:
    """Run scenario files (or folders of them) against the engine."""
    from core.scenario import run_file, scenario_files

    passed = failed = 0
    for path in scenario_files(paths):
        result = run_file(path, show=show)
        if result.passed:
            passed += 1
            click.echo(f"PASS {result.name}")
        else:
            failed += 1
            click.echo(f"FAIL {result.name}: {result.reason}")
        if show:
            for line in result.transcript:
                click.echo(f"    {line}")
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 and passed > 0 else 1)


@main.command()
@click.option("--ruleset", "ruleset_id", default="changelings",
              type=click.Choice(sorted(available())), show_default=True)
@players_option("How many players each game seats (with --roles: as many as roles).",
                default=None)
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1))
@click.option("--seed", default=0, show_default=True)
@click.option("--roles", default=None, metavar="ROLE,ROLE,…",
              help="The host's role list, one role id per seat (as /setroles); default: the "
                   "rule set's deal.")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="A host option, as /option sets it (repeatable).")
@click.option("--players-play", type=click.Choice(["random", "informed", "theory"]),
              default="random", show_default=True,
              help="random: blind legal moves; informed: agents that use what they are told "
                   "(claims, checks, reads); theory: the random lynch, information off.")
@click.option("--skill", type=click.FloatRange(0.0, 1.0), default=0.3, show_default=True,
              help="The town's read skill r of informed players (0.15 new, 0.3 regular, "
                   "0.45 sharp table).")
def simulate(ruleset_id: str, players: int | None, games: int, seed: int, roles: str | None,
             option_pairs: tuple[str, ...], players_play: str, skill: float) -> None:
    """Play simulated games and report win rates, length and speed."""
    import time
    from collections import Counter

    from core.balance import Players, parse_options, play_games
    from core.engine.ids import RoleId
    from core.engine.ruleset import SetupError
    from core.simulate import Report

    ruleset = load_ruleset(ruleset_id)
    role_list = (tuple(RoleId(r.strip()) for r in roles.split(",") if r.strip())
                 if roles else None)
    if players is None:
        players = len(role_list) if role_list else 12
    check_players(ruleset_id, players)
    start = time.perf_counter()
    try:
        options = parse_options(ruleset, option_pairs)
        tally = play_games(ruleset_id, players, role_list, options, Players(players_play),
                           skill, games, seed)
    except SetupError as err:
        raise click.UsageError(str(err)) from err
    report = Report(ruleset_id, players, games, time.perf_counter() - start,
                    Counter({side: won for side, won in tally.wins if won}), tally.draws,
                    tally.days_total, tally.stuck)
    if players_play != "random":
        click.echo(f"{players_play} players" + (f", read skill {skill}"
                                                 if players_play == "informed" else ""))
    for line in report.lines():
        click.echo(line)


@main.command()
@click.option("--ruleset", "ruleset_id", default="changelings",
              type=click.Choice(sorted(available())), show_default=True)
@players_option("How many players sit at the table.", default=12)
@click.option("--roles", default=None, help="The role list, comma-separated (default: the "
              "rule set's deal).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A host option, as /option sets it (repeatable).")
@click.option("--skill", default="regular", show_default=True,
              type=click.Choice(["new", "regular", "sharp"]), help="How well the table reads.")
@click.option("--locale", default="en", show_default=True, type=click.Choice(["en", "de", "ru"]))
@click.option("--seconds", default=30.0, show_default=True, type=click.FloatRange(1),
              help="The most time an estimate may take when the tables do not hold it.")
@click.option("--fresh", is_flag=True, help="Estimate now even if the tables hold it.")
@click.option("--quick", is_flag=True, help="The tables' answer, however few games they hold.")
@click.option("--players-play", default="informed", show_default=True,
              type=click.Choice(["informed", "random"]),
              help="Who plays the simulated games (random: blind, for checking the rules).")
def balance(ruleset_id: str, players: int, roles: str | None, options: tuple[str, ...],
            skill: str, locale: str, seconds: float, fresh: bool, quick: bool,
            players_play: str) -> None:
    """The predicted win rate of each side for a table, and legal role sets closer to fair."""
    from core.balance import Players
    from core.balance.balance_cli import run_balance

    check_players(ruleset_id, players)
    for line in run_balance(ruleset_id, players, roles, options, skill, locale, seconds, fresh,
                            Players(players_play), quick):
        click.echo(line)


@main.command()
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False,
                                                          path_type=Path),
              default=None, help="nightfall.toml (keys may also come from NIGHTFALL_* variables).")
def run(config_path: Path | None) -> None:
    """Run the bot: every enabled platform, the scheduler and the outbox, until SIGTERM."""
    import asyncio

    from core.app import serve
    from core.config import load_settings
    from core.redaction import redact
    from core.sections import ConfigError
    from core.service import LoginRefused
    from core.storage.startup import DatabaseUnreachable

    try:
        settings = load_settings(config_path)
        asyncio.run(serve(settings))
    except ConfigError as err:
        raise click.ClickException(f"configuration:\n{err}") from None
    except LoginRefused as err:  # one line for the log and systemd; retrying cannot help
        raise click.ClickException(redact(str(err))) from None  # the refused token, too
    except DatabaseUnreachable:  # said in one line in the log's format already
        sys.exit(1)


@main.command("check-config")
@click.argument("config_path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def check_config(config_path: Path) -> None:
    """Validate a configuration file (and the NIGHTFALL_* environment) without starting."""
    from core.config import load_settings
    from core.plugins import build_adapters
    from core.sections import ConfigError

    try:
        settings = load_settings(config_path)
        platforms = [a.platform for a in build_adapters(settings)]
    except ConfigError as err:
        raise click.ClickException(f"configuration:\n{err}") from None
    _warn(settings)
    click.echo(f"{config_path}: valid; platforms: {', '.join(platforms)}; "
               f"database: {settings.database.url.split('://')[0]}")


@main.command()
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("nightfall.toml"), show_default=True,
              help="The configuration to write (its secret goes to secrets/ beside it).")
@click.option("--platform", type=click.Choice(["telegram", "matrix"]), default=None)
@click.option("--token", default=None, help="Telegram: the bot token from @BotFather.")
@click.option("--homeserver", default=None, help="Matrix: e.g. https://matrix.org.")
@click.option("--user-id", default=None, help="Matrix: the bot's account, @bot:example.org.")
@click.option("--password", default=None, help="Matrix: the bot account's password.")
@click.option("--access-token", default=None, help="Matrix: an access token instead.")
@click.option("--allow", default=None,
              help="Matrix: who may invite the bot, comma-separated @user:server or :server.")
@click.option("--database", default=None, help="sqlite://FILE (default) or postgres://...")
@click.option("--api-url", default=None, hidden=True)  # another Bot API server (tests)
@click.option("--user", "service_user", default=None,
              help="Run as root: the service user who must read the files (default: the "
                   "folder's group or owner, e.g. nightfall for /etc/nightfall).")
@click.option("--force", is_flag=True, help="Overwrite an existing configuration.")
def init(output: Path, force: bool, service_user: str | None, **given: str | None) -> None:
    """Ask the few questions a new host must answer, test the login, write nightfall.toml."""
    from core.config import load_settings
    from core.init import LoginFailed, ask, try_login, write_config
    from core.init_owner import root_only, service_reader, share
    from core.sections import ConfigError

    if output.exists() and not force:
        raise click.ClickException(f"{output} exists: give --force to replace it, or -o FILE")
    folder = output.resolve().parent
    try:  # a folder init will create is judged by the one it goes into
        reader = service_reader(next(p for p in (folder, *folder.parents) if p.is_dir()),
                                service_user)
    except KeyError:
        raise click.ClickException(f"--user {service_user}: no such user") from None
    recipe_secrets = root_only(folder / "secrets")
    answers = ask(dict(given))
    try:
        who = try_login(answers)
    except LoginFailed as err:
        raise click.ClickException(f"{err}; nothing was written") from None
    click.echo(f"{answers.platform}: logged in as {who}")
    secret = write_config(output, answers)
    try:
        load_settings(output)
    except ConfigError as err:
        raise click.ClickException(f"configuration:\n{err}") from None
    shared = f"; {share(output, secret, reader, recipe_secrets)}" if reader else " (0600)"
    click.echo(f"wrote {output} and {secret}{shared}; next: nightfall check-config {output}, "
               f"then nightfall run --config {output}")


def _warn(settings: Sections) -> None:
    """A valid file can still make the bot fail quietly (an empty Matrix `allow` list, rates
    too slow for the quick pace): one loud line each, naming the key, on stderr."""
    from core.plugins import config_warnings

    for line in config_warnings(settings):
        click.secho(f"WARNING: {line}", err=True, fg="yellow", bold=True)


def _database(db: str | None, config_path: Path | None) -> str:
    """The database an admin command reads: never one created on the spot (a mistyped path
    or a missing --db would otherwise show an empty community)."""
    from core.config import load_settings
    from core.sections import ConfigError

    if not db:
        try:
            db = load_settings(config_path).database.url
        except ConfigError as err:
            raise click.ClickException(f"configuration:\n{err}") from None
    if db.startswith("sqlite://"):
        path = Path(db.removeprefix("sqlite://"))
        if str(path) != ":memory:" and not path.exists():
            raise click.ClickException(f"no database at {path}: give --db URL or --config FILE")
    return db


def _admin(db: str, action: Any) -> Any:
    import asyncio

    from core.admin import AdminError
    from core.storage.db import close_db, open_db

    async def run_it() -> Any:
        await open_db(db)
        try:
            return await action()
        finally:
            await close_db()

    try:
        return asyncio.run(run_it())
    except AdminError as err:
        raise click.ClickException(str(err)) from None


DB_OPTION = click.option("--db", default=None, help="Database URL (default: from the config).")
CONFIG_OPTION = click.option("--config", "config_path", default=None,
                             type=click.Path(exists=True, dir_okay=False, path_type=Path))


@main.command()
@click.argument("game_id", type=int)
@DB_OPTION
@CONFIG_OPTION
def export(game_id: int, db: str | None, config_path: Path | None) -> None:
    """A finished game's full log, its players' roles and the winners, as JSON."""
    import json

    from core.admin import export_game

    data = _admin(_database(db, config_path), lambda: export_game(game_id))
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@main.command()
@DB_OPTION
@CONFIG_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def stats(db: str | None, config_path: Path | None, as_json: bool) -> None:
    """The community's statistics: games per rule set, win rates, the most active players."""
    import json

    from core.admin import community_stats

    data = _admin(_database(db, config_path), community_stats)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    click.echo("games: " + (", ".join(f"{r} {n}" for r, n in data["games"].items()) or "none"))
    for kind in ("sides", "roles"):
        click.echo(f"\n{kind}:")
        for entry in data[kind]:
            what = entry["side" if kind == "sides" else "role"]
            click.echo(f"  {entry['ruleset']:12} {what:22} {entry['won']:4}/{entry['played']:<4}"
                       f" {entry['win_rate']:.0%}")
    click.echo("\nmost active:")
    for entry in data["most_active"]:
        games = entry["games"]
        click.echo(f"  {entry['name']:24} {games} game{'' if games == 1 else 's'}")


@main.command()
@click.argument("user")
@DB_OPTION
@CONFIG_OPTION
def forget(user: str, db: str | None, config_path: Path | None) -> None:
    """Delete a person's data on request. USER is PLATFORM:ID, e.g. telegram:123456 or
    matrix:@ann:example.org."""
    from core.admin import forget_person

    platform, _, ref = user.partition(":")
    if not ref:
        raise click.ClickException("write the person as PLATFORM:ID, e.g. telegram:123456")
    count = _admin(_database(db, config_path), lambda: forget_person(platform, ref))
    click.echo(f"forgotten; {count} finished game(s) scrubbed")


@main.command()
@DB_OPTION
@CONFIG_OPTION
def games(db: str | None, config_path: Path | None) -> None:
    """Every game with its id (for export and archive), rule set, status, chat and players,
    and a finished game's archive link (its path where no `[http] public_url` is set)."""
    from core.story.archive import game_list

    public_url = _public_url(config_path)
    for g in _admin(_database(db, config_path), lambda: game_list(public_url)):
        click.echo(f"{g['id']:>6}  {g['ruleset']:12} {g['status']:10} {g['players']:>3} "
                   f"players  {g['created_at']}  {g['chat']}  {g['link']}".rstrip())


def _public_url(config_path: Path | None) -> str:
    """The `[http] public_url` of the configuration, if there is one to read."""
    from core.config import load_settings
    from core.sections import ConfigError

    try:
        return load_settings(config_path).http.public_url
    except ConfigError:
        return ""


@main.command()
@click.argument("game_id", type=int)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The HTML file to write.")
@click.option("--locale", default=None, help="de, ru or en (default: the chat's language).")
@DB_OPTION
@CONFIG_OPTION
def archive(game_id: int, output: Path, locale: str | None, db: str | None,
            config_path: Path | None) -> None:
    """A finished game's archive page as one HTML file (the page the HTTP server serves)."""
    from core.admin import AdminError
    from core.story.archive import archived
    from core.story.page import archive_page

    async def page() -> str:
        found = await archived(game_id)
        if found is None:
            raise AdminError(f"game {game_id} is unknown or not over: its story is secret "
                             "until it ends")
        return archive_page(found.story, locale or found.locale, found.team_chats)

    output.write_text(_admin(_database(db, config_path), page), encoding="utf-8")
    click.echo(f"wrote {output}")


# what the installed adapters add (the console adapter: `demo` and `play`)
for _plugin in adapter_plugins().values():
    for _command in _plugin.commands:
        main.add_command(_command)
