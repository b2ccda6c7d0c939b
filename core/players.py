"""`--players` of `nightfall demo` and `simulate`: its help and its check read each rule set's
declared range (`Ruleset.min_players` / `max_players`), so a rule set of another package
shows its own and a count it cannot seat is refused before anything runs (with the range, and
a non-zero exit). The rule sets are loaded only when a command's help is printed or the
command runs, never for `nightfall --help`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from core.engine.registry import available, load_ruleset

F = TypeVar("F", bound=Callable[..., Any])


def player_range(ruleset_id: str) -> tuple[int, int]:
    ruleset = load_ruleset(ruleset_id)
    return ruleset.min_players, ruleset.max_players


def ranges() -> str:
    """"changelings 6–30, alchemists 9–20" for every installed rule set."""
    return ", ".join(f"{rid} {low}–{high}" for rid in sorted(available())
                     for low, high in [player_range(rid)])


class PlayersOption(click.Option):
    """An `--players` whose help ends with every rule set's range, computed when shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None:
            return None
        names, text = record
        return names, f"Per rule set: {ranges()}. {text}"


def players_option(help_text: str, default: int | None) -> Callable[[F], F]:
    return click.option("--players", default=default, type=int, cls=PlayersOption,
                        help=help_text, show_default=default is not None)


def check_players(ruleset_id: str, players: int, most: int | None = None) -> None:
    """Refuse a count the rule set cannot seat (or more than `most`, what the command can
    play), naming the range."""
    low, high = player_range(ruleset_id)
    here = high if most is None else min(high, most)
    if not low <= players <= here:
        limit = f" (here at most {here})" if here < high else ""
        raise click.BadParameter(f"{ruleset_id} takes {low} to {high} players{limit}, not "
                                 f"{players}", param_hint="'--players'")
