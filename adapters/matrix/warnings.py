"""What `nightfall check-config` and `nightfall run` warn a Matrix host about before any player
does (issue 32): settings that are valid but make the bot fail quietly.

- `allow` empty: the bot declines every invite, so no host can bring it into a game room.
- `[matrix.rates]` too slow for the quick pace. One account's messages share one budget
  (Synapse's default `rc_message`: 0.2 a second, bursts of 10), and a game's start writes a
  message per player at once: the opening, every role card, the team rooms, the ballot and
  its list. The outbox sends the group's rows first (core/service/delivery/lanes.py), so the
  ballot waits only behind the group's own messages, BALLOT_AHEAD of them, at worst with the
  budget spent by the sign-up; the cards follow at the configured rate. Each is compared
  with the shortest window a rule set times at the quick pace.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from core.service import RateLimits

BALLOT_AHEAD = 4  # group events up to a start's ballot: the opening, team rooms, poll, list
START_EXTRA = 4  # a start's events beside the role cards: those same four


@dataclass(frozen=True)
class Table:
    """What a rule set asks of the pacing: its largest table, its shortest quick window."""

    ruleset: str
    max_players: int
    shortest_quick: float  # seconds


def installed_tables() -> list[Table]:
    """The installed rule sets' largest tables and shortest quick windows."""
    from core.engine.registry import available, load_ruleset

    tables = []
    for ruleset_id in sorted(available()):
        ruleset = load_ruleset(ruleset_id)
        windows = ruleset.timed_windows()
        if windows:
            tables.append(Table(ruleset_id, ruleset.max_players,
                                min(float(w.quick) for w in windows)))
    return tables


def allow_warning(allow: Iterable[str]) -> str | None:
    if list(allow):
        return None
    return ("matrix.allow is empty: the bot declines every invite, so nobody can invite it "
            "into a game room; list who may, e.g. allow = [\"@host:example.org\"] (or "
            "\":example.org\" for everyone on that server)")


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
        fits = max(0, math.floor(table.shortest_quick * rate + burst) - START_EXTRA)
        if fits < table.max_players:
            drain = max(0, table.max_players + START_EXTRA - burst) / rate
            short.append(f"{fits} in {table.ruleset} ({table.max_players} take {drain:.0f} s, "
                         f"the window {table.shortest_quick:.0f} s)")
    if short:
        lines.append(f"{pace} is too slow for a full table at the quick pace: a game's start "
                     "(a role card per player) reaches everyone within the shortest window "
                     f"only up to {', '.join(short)}; the ballot goes first. Lift the bot "
                     "account's rate limit and raise matrix.rates.overall (docs/matrix.md), "
                     "or play larger games at /pace forum or with longer /timer windows")
    return lines
