"""Regenerate the balance advisor's precomputed tables (rulesets/<id>/balance_table.json):
for every legal player count, the rule set's default deal and its legal neighbours (one role
more or fewer) at the three skill presets, played by the informed simulated players.

Each cell starts with `--games` games; with `--wanted` it plays on (sequential stopping)
until the target sides' 95 % half-width is at most that. The file records the first batch's
size, each cell's games, the rule set's fingerprint and the agents' version; a table with
another fingerprint is still read, but `nightfall balance` says it is stale.

    .venv/bin/python tools/balance_tables.py                               # everything, 200 games
    .venv/bin/python tools/balance_tables.py --ruleset changelings --players 10-14 \\
        --games 400 --wanted 0.02 --no-neighbours
    .venv/bin/python tools/balance_tables.py --check                       # stale tables?
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.balance.candidates import neighbours  # noqa: E402
from core.balance.estimate import estimate  # noqa: E402
from core.balance.presets import Preset  # noqa: E402
from core.balance.runs import agent_version, player  # noqa: E402
from core.balance.setups import setup_of  # noqa: E402
from core.balance.tables import Cell, Table, fingerprint, shipped, table_path, write  # noqa: E402
from core.balance.tally import Players  # noqa: E402
from core.engine.registry import available, load_ruleset  # noqa: E402


def counts(text: str | None, low: int, high: int) -> list[int]:
    """"10-14" or "8,12" (within the rule set's bounds); all of them for None."""
    if not text:
        return list(range(low, high + 1))
    wanted: list[int] = []
    for piece in text.split(","):
        first, _, last = piece.partition("-")
        wanted += range(int(first), int(last or first) + 1)
    return [n for n in wanted if low <= n <= high]


def regenerate(ruleset_id: str, args: argparse.Namespace) -> None:
    ruleset = load_ruleset(ruleset_id)
    target = ruleset.balance
    if target is None:
        print(f"{ruleset_id}: no balance target, no table")
        return
    version = agent_version()
    print_ = fingerprint(ruleset_id, version)
    old = shipped(ruleset_id)
    table = (old if old.fingerprint == print_ and not (args.fresh or args.out)
             else Table(ruleset_id))
    table.fingerprint, table.agent_version, table.first_games = print_, version, args.games
    play = player(Players(args.players_play))
    presets = [Preset(p) for p in args.skill] if args.skill else list(Preset)
    path = args.out / f"{ruleset_id}.json" if args.out else table_path(ruleset_id)
    for n in counts(args.players, ruleset.min_players, ruleset.max_players):
        started, played = time.monotonic(), 0
        deal = setup_of(ruleset_id, n, None, {})
        setups = [deal, *(neighbours(deal) if args.neighbours else [])]
        for setup in setups:
            for preset in presets:
                known = table.get(setup.key(), preset)
                found = estimate(setup, preset.r, target.sides(), play, wanted=args.wanted,
                                 first=args.games,
                                 most=args.most if args.wanted else args.games, start=known)
                played += found.games - (known.games if known else 0)
                table.add(Cell(n, setup.key(), preset, found, setup == deal))
        write(table, path)  # after each count: an interrupted run keeps what it made
        seconds = time.monotonic() - started
        print(f"{ruleset_id} {n:2} players: {len(setups)} setups × {len(presets)} presets, "
              f"{played} games in {seconds:.0f} s ({played / max(seconds, 1e-9):.0f}/s)",
              flush=True)


def check() -> int:
    stale = [r for r in sorted(available()) if load_ruleset(r).balance is not None
             and shipped(r).stale(agent_version())]
    for ruleset_id in stale:
        print(f"{ruleset_id}: the table is stale (other rules or agents)")
    return 1 if stale else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=sorted(available()), action="append")
    parser.add_argument("--players", help='player counts, e.g. "10-14" or "8,12"')
    parser.add_argument("--skill", choices=[p.value for p in Preset], action="append")
    parser.add_argument("--games", type=int, default=200, help="each cell's first batch")
    parser.add_argument("--wanted", type=float, default=0.0,
                        help="play on until this half-width (0: the first batch only)")
    parser.add_argument("--most", type=int, default=20_000, help="the most games a cell")
    parser.add_argument("--no-neighbours", dest="neighbours", action="store_false",
                        help="the default deals only")
    parser.add_argument("--players-play", choices=[p.value for p in Players],
                        default=Players.INFORMED.value)
    parser.add_argument("--fresh", action="store_true", help="start from an empty table")
    parser.add_argument("--check", action="store_true", help="only report stale tables")
    parser.add_argument("--out", type=Path, help="write DIR/<rule set>.json instead (a trial)")
    args = parser.parse_args()
    if args.check:
        return check()
    for ruleset_id in args.ruleset or sorted(available()):
        regenerate(ruleset_id, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
