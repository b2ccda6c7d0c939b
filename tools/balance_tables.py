"""Regenerate the balance advisor's precomputed tables (rulesets/<id>/balance_table.json):
for every legal player count, the rule set's default deal and its legal neighbours (one role
more or fewer) at the three skill presets, played by the informed simulated players.

Each cell starts with `--games` games. With `--wanted` (a full run) the cells a host can be
shown are played on (sequential stopping) until the target sides' 95 % half-width is at most
that: the deal at every preset, and per preset the neighbours the advisor would recommend (the
closest to the target, found from the others screened to the advisor's screening precision).
The file records the first batch's size, each cell's games and the fingerprint of how the
games are played (core/balance/behaviour.py); a table with another fingerprint is still read,
but `nightfall balance` says it is stale.

    .venv/bin/python tools/balance_tables.py                               # everything, 200 games
    .venv/bin/python tools/balance_tables.py --ruleset changelings --players 10-14 \\
        --games 400 --wanted 0.02 --no-neighbours
    .venv/bin/python tools/balance_tables.py --check                       # stale tables?
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.balance.advice import ALTERNATIVES, SCREEN, advise  # noqa: E402
from core.balance.candidates import neighbours  # noqa: E402
from core.balance.estimate import Estimate, estimate  # noqa: E402
from core.balance.presets import Preset  # noqa: E402
from core.balance.runs import agent_version, player  # noqa: E402
from core.balance.setups import Setup, setup_of  # noqa: E402
from core.balance.tables import Cell, Table, fingerprint, read, shipped, table_path, write  # noqa: E402
from core.balance.tally import Players  # noqa: E402
from core.balance.targets import distance  # noqa: E402
from core.engine.balance_target import BalanceTarget  # noqa: E402
from core.engine.registry import available, load_ruleset  # noqa: E402

CONFIRMING = 10_000_000  # the confirmations' first seed: far from every table run's games


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
    print_ = fingerprint(ruleset_id)
    path = args.out / f"{ruleset_id}.json" if args.out else table_path(ruleset_id)
    old = read(path) if path.exists() else Table(ruleset_id)
    table = old if old.fingerprint == print_ and not args.fresh else Table(ruleset_id)
    table.fingerprint, table.agent_version, table.first_games = (print_, agent_version(),
                                                                 args.games)
    play = player(Players(args.players_play))
    presets = [Preset(p) for p in args.skill] if args.skill else list(Preset)
    path.parent.mkdir(parents=True, exist_ok=True)
    sides = target.sides()

    def measured(setup: Setup, preset: Preset, wanted: float, default: bool) -> Estimate:
        """The cell played on to `wanted` (0: the first batch only), kept in the table."""
        known = table.get(setup.key(), preset)
        found = estimate(setup, preset.r, sides, play, wanted=wanted, first=args.games,
                         most=args.most if wanted else args.games, start=known)
        table.add(Cell(setup.players, setup.key(), preset, found, default))
        return found

    for n in counts(args.players, ruleset.min_players, ruleset.max_players):
        started, before = time.monotonic(), table.games()
        deal = setup_of(ruleset_id, n, None, {})
        others = neighbours(deal) if args.neighbours else []
        for preset in presets:
            current = measured(deal, preset, args.wanted, True)
            screened = {o.key(): (o, measured(o, preset, SCREEN if args.wanted else 0, False))
                        for o in others}
            if args.wanted:
                _refine_the_closest(target, current, preset, screened, measured, args.wanted)
        write(table, path)  # after each count: an interrupted run keeps what it made
        seconds, played = time.monotonic() - started, table.games() - before
        print(f"{ruleset_id} {n:2} players: {1 + len(others)} setups × {len(presets)} presets, "
              f"{played} games in {seconds:.0f} s ({played / max(seconds, 1e-9):.0f}/s)",
              flush=True)


def _refine_the_closest(target: BalanceTarget, current: Estimate, preset: Preset,
                        screened: dict[str, tuple[Setup, Estimate]],
                        measured: Callable[[Setup, Preset, float, bool], Estimate],
                        wanted: float) -> None:
    """The candidates the advisor would recommend (the closest to the target, closer than the
    deal), played on to a shown number's precision; refining may reorder them, so until the
    best ones are all refined."""
    now = distance(target, current)
    while True:
        ranked = sorted((distance(target, e), key) for key, (_, e) in screened.items())
        best = [key for d, key in ranked if d < now][:ALTERNATIVES]
        rough = [key for key in best if screened[key][1].widest(target.sides()) > wanted]
        if not rough:
            return
        for key in rough:
            setup, _ = screened[key]
            screened[key] = (setup, measured(setup, preset, wanted, False))


def confirm(ruleset_id: str, args: argparse.Namespace) -> None:
    """The rule set's deal at each count, and each role set the shipped table recommends for
    it as within the target, at each preset asked for, played afresh (a seed no table run
    uses) for `--confirm` games: is it within the target? Printed, not stored."""
    ruleset = load_ruleset(ruleset_id)
    target = ruleset.balance
    if target is None:
        return
    play = player(Players(args.players_play))
    presets = [Preset(p) for p in args.skill] if args.skill else [Preset.REGULAR]
    table = shipped(ruleset_id)
    for n in counts(args.players, ruleset.min_players, ruleset.max_players):
        deal = setup_of(ruleset_id, n, None, {})
        for preset in presets:
            advice = advise(deal, preset, table)
            recommended = [] if advice is None or advice.none_within else [
                (" ".join(f"{c.count:+d} {c.role}" for c in a.changes), a.setup)
                for a in advice.alternatives]
            for name, setup in [("deal", deal), *recommended]:
                found = play(setup, preset.r, args.confirm, CONFIRMING)
                rates = ", ".join(f"{side} {found.rate(side):.1%} ± "
                                  f"{found.share(side).half_width:.1%}" for side in ruleset.sides)
                verdict = "within" if distance(target, found) == 0 else \
                    f"{distance(target, found):.1%} outside"
                print(f"{ruleset_id} {n:2} {preset.value:7} {name}, {found.games} games: "
                      f"{rates}; {verdict}", flush=True)


def merge(ruleset_id: str, paths: list[Path]) -> int:
    """Tables made in parallel (`--out`, each for some counts) as the shipped one: they must
    have been played alike (one fingerprint); a count held by several comes from the last."""
    tables = [read(path) for path in paths]
    prints = {t.fingerprint for t in tables}
    if len(prints) != 1 or any(t.ruleset != ruleset_id for t in tables):
        print(f"{ruleset_id}: the tables were played otherwise or are another rule set's")
        return 1
    merged = Table(ruleset_id, prints.pop(), tables[0].agent_version, tables[0].first_games)
    for table in tables:  # a count's cells come from the last table holding it (a rerun's)
        counts_here = {cell.players for cell in table}
        merged.cells = {k: c for k, c in merged.cells.items() if c.players not in counts_here}
        for cell in table:
            merged.add(cell)
    write(merged, table_path(ruleset_id))
    print(f"{ruleset_id}: {len(merged.cells)} cells, {merged.games()} games")
    return 0


def check() -> int:
    stale = [r for r in sorted(available()) if load_ruleset(r).balance is not None
             and shipped(r).stale()]
    for ruleset_id in stale:
        print(f"{ruleset_id}: the table is stale (its games are played otherwise now)")
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
    parser.add_argument("--merge", type=Path, nargs="+", metavar="FILE",
                        help="only join tables made with --out into the shipped one")
    parser.add_argument("--confirm", type=int, metavar="GAMES",
                        help="only play each deal afresh this many games and say if it is fair")
    parser.add_argument("--out", type=Path, help="write DIR/<rule set>.json instead (a trial)")
    args = parser.parse_args()
    if args.check:
        return check()
    if args.merge:
        return merge((args.ruleset or [""])[0], args.merge)
    for ruleset_id in args.ruleset or sorted(available()):
        if args.confirm:
            confirm(ruleset_id, args)
        else:
            regenerate(ruleset_id, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
