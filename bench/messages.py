"""Messages per game day: how many group messages (sends and in-place edits) and private
messages a whole game costs per day, for 8, 15 and 25 players, compared with the design of
the most popular Telegram werewolf bot, which posts one group message per vote.

Games are played by simulated players through the whole service (the demo's players: they
press what they are offered) on SQLite; the outbox is counted afterwards. Edits are counted
as delivered without any rate limit, so one per vote: the upper bound (under Telegram's pacing
the outbox merges edits that wait). The last column is what the same game would post with one
group message per vote instead of the edited ballot. Prints a table; nothing is asserted.
Run: `python bench/messages.py [--games 3]`.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import tempfile
from pathlib import Path

from adapters.console.demo import run_demo
from core.service.messages.payloads import ORDERS, from_json
from core.storage.db import close_db, open_db
from core.storage.models import GameRecord, LogEntry, Outbox

CASES = (("changelings", 8), ("changelings", 15), ("changelings", 25), ("alchemists", 15))


async def count(db_url: str) -> dict[str, float]:
    """Per day of the finished game in this database: group sends, group edits, private
    messages, votes cast."""
    await open_db(db_url)
    try:
        row = await GameRecord.all().order_by("-id").first()
        assert row is not None
        entries = await LogEntry.filter(game_id=row.id)
        days = max([1] + [int(str(data["phase"]).split()[1]) for e in entries
                          for kind, data in e.events
                          if kind == "phase" and str(data["phase"]).startswith("day ")])
        seen: set[str] = set()
        sends = edits = private = 0
        for out in await Outbox.filter(status__in=["sent", "superseded"]).order_by("id"):
            payload = from_json(out.payload)
            if isinstance(payload, ORDERS):
                continue  # a mute or a team room's members: no message
            if out.private:
                private += 1
                continue
            key = payload.replace
            if key and key in seen:
                edits += out.status == "sent"
                continue
            if key:
                seen.add(key)
            sends += 1
        votes = sum(1 for e in entries if e.command["type"] == "Vote")
        return {"days": days, "group": sends / days, "edits": edits / days,
                "private": private / days, "votes": votes / days}
    finally:
        await close_db()


async def one_game(ruleset: str, players: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite://{Path(folder) / 'bench.sqlite3'}"
        await run_demo(ruleset, players, "en", seed, io.StringIO(), db)
        return await count(db)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    print(f"{'rule set':12} {'players':>7} {'days':>5} {'group/day':>10} {'edits/day':>10} "
          f"{'private/day':>12} {'votes/day':>10} {'one-per-vote group/day':>23}")
    for ruleset, players in CASES:
        runs = [asyncio.run(one_game(ruleset, players, seed)) for seed in range(args.games)]
        mean = {k: statistics.fmean(r[k] for r in runs) for k in runs[0]}
        per_vote = mean["group"] + mean["votes"]  # an announcement per vote instead of edits
        print(f"{ruleset:12} {players:>7} {mean['days']:>5.1f} {mean['group']:>10.1f} "
              f"{mean['edits']:>10.1f} {mean['private']:>12.1f} {mean['votes']:>10.1f} "
              f"{per_vote:>23.1f}")


if __name__ == "__main__":
    main()
