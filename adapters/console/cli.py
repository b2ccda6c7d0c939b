"""The console adapter's commands: `nightfall demo` and `nightfall play`, added to the
command line through its plugin (see core/plugins.py)."""

from __future__ import annotations

import sys
from typing import Any

import click

from core.engine.registry import available, load_ruleset
from core.players import check_players, players_option
from core.plugins import AdapterPlugin

# a table that shows each rule set at its best (more than its least)
DEMO_PLAYERS = {"changelings": 8, "alchemists": 15}


@click.command()
@click.option("--ruleset", "ruleset_id", default="changelings",
              type=click.Choice(sorted(available())), show_default=True)
@players_option("Default: 8 for changelings, 15 for alchemists, else the rule set's least; "
                "the demo has 30 names.", default=None)
@click.option("--locale", default="en", show_default=True)
@click.option("--seed", default=None, type=int, help="Default: a random seed.")
def demo(ruleset_id: str, players: int | None, locale: str, seed: int | None) -> None:
    """Watch a whole game with simulated players, through the whole service stack."""
    import asyncio
    import random

    from .demo import NAMES, run_demo
    from .pipe import silence

    ruleset = load_ruleset(ruleset_id)
    count = players or max(ruleset.min_players, DEMO_PLAYERS.get(ruleset_id, 0))
    check_players(ruleset_id, count, most=len(NAMES))
    chosen = seed if seed is not None else random.randrange(1 << 30)
    if asyncio.run(run_demo(ruleset_id, count, locale, chosen, sys.stdout)):
        silence(sys.stdout)  # its reader is gone (`| head`): no error on the way out


@click.command()
@click.argument("script", type=click.File("r"), default="-")
@click.option("--db", default="sqlite://nightfall.sqlite3", show_default=True,
              help="Database URL: sqlite://FILE or postgres://USER@HOST:PORT/DB.")
@click.option("--locale", default="en", show_default=True, help="The group's language.")
@click.option("--clock", "clock_mode", type=click.Choice(["manual", "real"]), default="manual",
              show_default=True)
@click.option("--seed", default=None, type=int, help="Seed for dealing and random events.")
def play(script: Any, db: str, locale: str, clock_mode: str, seed: int | None) -> None:
    """A whole group chat in the terminal: read script lines (a file or stdin), print the
    bot's messages."""
    import asyncio

    from .play import run_play

    sys.exit(asyncio.run(run_play(script, db, locale, clock_mode, seed, sys.stdout)))


# the console is not a platform `nightfall run` serves (no section): it has its own commands
PLUGIN: AdapterPlugin[Any] = AdapterPlugin(platform="console", commands=(demo, play))
