"""What `nightfall check-config` and `nightfall run` warn a Matrix host about before any player
does (issue 32): settings that are valid but make the bot fail quietly.

- `allow` empty: the bot declines every invite, so no host can bring it into a game room.
- `[matrix.rates]` too slow for the quick pace. One account's messages share one budget
  (Synapse's default `rc_message`: 0.2 a second, bursts of 10), and the outbox sends the
  group's rows first (core/service/delivery/lanes.py), so two loads matter:
  - a window's ballot waits behind the group's own messages only (BALLOT_AHEAD of them), at
    worst with the budget spent: it must open well within the shortest quick window;
  - a game's start writes a message to every player at once (his role card; in a game that
    opens with a night, the prompt of each who acts). The first window waits for them
    (core/service/games/deadlines.py: a window opens when its messages can have gone out),
    so every player has all of it; but a start that waits longer than the longest quick
    window is no quick game any more. The start's messages are counted from the rule set
    itself: the engine deals and opens a table when asked.
  At Synapse's default rate both fit every installed rule set: the defaults warn of nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, partial

from core.service import RateLimits

BALLOT_AHEAD = 4  # group events up to a start's ballot: the opening, team rooms, poll, list
START_GROUP = 4  # a start's group events beside the private ones: those same four


@dataclass(frozen=True)
class Table:
    """What a rule set asks of the pacing at the quick pace."""

    ruleset: str
    shortest_quick: float  # seconds: its shortest window (a ballot must open within it)
    longest_quick: float  # seconds: its longest window (a start may wait no longer)
    min_players: int
    max_players: int
    start_rows: Callable[[int], int]  # players -> the messages a start writes (group's too)


def installed_tables() -> list[Table]:
    """The installed rule sets' windows and starts (a start is dealt and opened by the
    engine when asked for, a few milliseconds each)."""
    from core.engine.registry import available, load_ruleset

    tables = []
    for ruleset_id in sorted(available()):
        ruleset = load_ruleset(ruleset_id)
        quick = [float(w.quick) for w in ruleset.timed_windows()]
        if quick:
            tables.append(Table(ruleset_id, min(quick), max(quick), ruleset.min_players,
                                ruleset.max_players, partial(start_rows, ruleset_id)))
    return tables


@cache
def start_rows(ruleset_id: str, players: int) -> int:
    """The messages a start of this size writes: the group's, one to each private chat or
    team room the opening tells something, one prompt to each player it asks to act."""
    from core.engine.messages import Group
    from core.engine.registry import load_ruleset
    from core.simulate import new_game

    ruleset = load_ruleset(ruleset_id)
    game = new_game(ruleset, players, seed=0)
    told = {m.audience for m in game.opening.messages if not isinstance(m.audience, Group)}
    prompted = sum(1 for p in game.state.players.values() if ruleset.prompted(game, p))
    return START_GROUP + len(told) + prompted


def allow_warning(allow: Iterable[str]) -> str | None:
    if list(allow):
        return None
    return ("matrix.allow is empty: the bot declines every invite, so nobody can invite it "
            "into a game room; list who may, e.g. allow = [\"@host:example.org\"] (or "
            "\":example.org\" for everyone on that server)")


def start_seconds(rows: int, limits: RateLimits) -> float:
    """How long a start's rows take to go out at these rates, the burst spent first."""
    return max(0, rows - limits.overall_burst) / limits.overall if limits.overall else 0.0


def largest_fitting(table: Table, limits: RateLimits) -> int:
    """The largest table whose start goes out within the longest quick window (0: none),
    by halving: a start's messages grow with the table."""
    low, high = table.min_players - 1, table.max_players  # low fits (or is none), high not
    while high - low > 1:
        middle = (low + high) // 2
        if start_seconds(table.start_rows(middle), limits) <= table.longest_quick:
            low = middle
        else:
            high = middle
    return max(0, low) if low >= table.min_players else 0


def rate_warnings(limits: RateLimits, tables: list[Table]) -> list[str]:
    """The lines a host should read about `[matrix.rates]`, for these rule sets."""
    if not limits.overall or not tables:  # 0: no limit of ours (the homeserver's was lifted)
        return []
    rate, burst = limits.overall, limits.overall_burst
    pace = f"matrix.rates.overall = {rate:g} messages/s (burst {burst})"
    lines = []
    shortest = min(tables, key=lambda t: t.shortest_quick)
    ballot = BALLOT_AHEAD / rate  # the budget spent, as a sign-up may leave it
    if ballot > shortest.shortest_quick:
        lines.append(f"{pace} holds a game's ballot {ballot:.0f} s, longer than the shortest "
                     f"quick window ({shortest.shortest_quick:.0f} s, {shortest.ruleset}): "
                     "raise matrix.rates.overall")
    short = []
    for table in tables:
        late = start_seconds(table.start_rows(table.max_players), limits)
        if late > table.longest_quick:
            most = largest_fitting(table, limits)
            short.append(f"{table.ruleset} " + (f"up to {most} players" if most else
                                                "at no size") +
                         f" ({table.max_players} wait {late:.0f} s, its longest window "
                         f"{table.longest_quick:.0f} s)")
    if short:
        lines.append(f"{pace} is too slow for a full table at the quick pace: a game's first "
                     "window waits until its start (a role card per player, the first "
                     "prompts) has gone out, and that wait stays within the longest quick "
                     f"window only for {'; '.join(short)}. Play larger games at !pace "
                     "forum, or lift the bot account's rate limit and raise "
                     "matrix.rates.overall (docs/matrix.md)")
    return lines
