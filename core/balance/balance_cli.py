"""`nightfall balance`: the advisor on the command line (the lobby's `/balance` without a
chat's history), with the worker's progress on standard error."""

from __future__ import annotations

import time
from collections.abc import Sequence

import click

from core.engine.registry import load_ruleset
from core.engine.ruleset import SetupError

from .answer import from_table, instant, lines
from .options import parse_options
from .presets import Preset
from .setups import legal, setup_of
from .tables import shipped
from .tally import Players
from .worker import Job


def run_balance(ruleset_id: str, players: int, roles: str | None, options: Sequence[str],
                skill: str, locale: str, seconds: float, fresh: bool,
                players_play: Players = Players.INFORMED, quick: bool = False) -> list[str]:
    """The advice's lines: `quick`, the tables' answer however few their games (nothing
    played now); `fresh`, games played now even where the tables are precise enough."""
    ruleset = load_ruleset(ruleset_id)
    try:
        chosen = parse_options(ruleset, options)
        listed = [r.strip() for r in roles.split(",") if r.strip()] if roles else None
        setup = setup_of(ruleset_id, players, listed, chosen)
    except SetupError as err:
        raise click.UsageError(str(err)) from err
    if not legal(setup):
        raise click.UsageError("the rule set does not allow this role list with these options")
    if shipped(ruleset_id).stale():
        click.echo(f"note: the shipped {ruleset_id} table was made from games played otherwise; "
                   "tools/balance_tables.py regenerates it", err=True)
    preset = Preset(skill)
    advice = None if fresh or players_play is not Players.INFORMED else (
        from_table(setup, preset) if quick else instant(setup, preset))
    if advice is None and quick:
        raise click.ClickException("the tables do not hold this table: leave out --quick")
    if advice is None:
        job = Job(setup, preset, seconds, players_play=players_play)
        while not job.poll():
            click.echo(f"\restimating … {job.progress:4.0%}", err=True, nl=False)
            time.sleep(0.5)
        click.echo("\restimating … done", err=True)
        advice = job.advice
    if advice is None:
        raise click.ClickException("no estimate: the simulated games failed or ran out of time")
    return lines(advice, locale)
