"""Rendering the story's picture: seconds per PNG for 20-player games of both rule sets (the
longest of a few seeded random games, names in Cyrillic, with umlauts and emoji), and the
picture's size. The target is under a second per picture. Prints a table; nothing is
asserted. Run: `python bench/story.py [--games 5] [--out DIR]` (with --out, the PNGs are kept).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from core.engine.registry import load_ruleset
from core.simulate import play_random_game
from core.story import story_of
from core.story.picture import png

NAMES = ("Jürgen Größe", "Наташа", "🦄 Twilight", "Ольга Ивановна", "Zoë", "Ärger", "Пётр",
         "Björn 👩‍🚀", "Łukasz", "Øyvind", "Şule", "Иван Грозный Третий", "Mia", "Ben", "Лена",
         "Sophie", "Max", "Юля", "Paul", "Дима")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    print(f"{'rule set':<12} {'locale':<6} {'days':>4} {'seconds':>8} {'size':>12} {'kB':>6}")
    for ruleset in ("changelings", "alchemists"):
        games = [play_random_game(load_ruleset(ruleset), 20, seed) for seed in range(args.games)]
        story = max((story_of(g) for g in games), key=lambda s: len(s.rounds))
        for p, name in zip(story.players, NAMES, strict=True):
            p.name = name
        for locale in ("en", "de", "ru"):
            start = time.perf_counter()
            data = png(story, locale)
            seconds = time.perf_counter() - start
            width = int.from_bytes(data[16:20], "big")
            height = int.from_bytes(data[20:24], "big")
            days = sum(r.kind == "day" for r in story.rounds)
            print(f"{ruleset:<12} {locale:<6} {days:>4} {seconds:>8.3f} "
                  f"{f'{width}x{height}':>12} {len(data) // 1024:>6}")
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / f"story-{ruleset}-{locale}.png").write_bytes(data)


if __name__ == "__main__":
    main()
