"""Statistics counted from finished games' stories, per game (never per seat): a person's
games, wins by rule set and side, favourite role and survival; a chat's games, each side's
win rate per rule set, and its most active players."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .model import Story


@dataclass
class PersonStats:
    games: int = 0
    won: int = 0
    survived: int = 0
    played: Counter[tuple[str, str]] = field(default_factory=Counter)  # (rule set, side)
    wins: Counter[tuple[str, str]] = field(default_factory=Counter)
    roles: Counter[str] = field(default_factory=Counter)  # "ruleset:role"

    def favourite(self) -> tuple[str, str, int] | None:
        """The role played most often (rule set, role, games); ties go to the earlier one."""
        if not self.roles:
            return None
        key, count = self.roles.most_common(1)[0]
        ruleset, _, role = key.partition(":")
        return ruleset, role, count


@dataclass
class GroupStats:
    games: Counter[str] = field(default_factory=Counter)  # per rule set
    played: Counter[tuple[str, str]] = field(default_factory=Counter)  # games a side was in
    wins: Counter[tuple[str, str]] = field(default_factory=Counter)
    active: Counter[int] = field(default_factory=Counter)  # identity → games


def person_stats(games: Iterable[tuple[Story, str]]) -> PersonStats:
    """`games`: each finished game's story with the pid the person sat in (once per game)."""
    stats = PersonStats()
    for story, pid in games:
        me = story.player(pid)
        stats.games += 1
        stats.won += me.won
        stats.survived += me.fate is None
        stats.played[(story.ruleset, me.side)] += 1
        stats.wins[(story.ruleset, me.side)] += me.won
        stats.roles[f"{story.ruleset}:{me.role}"] += 1
    return stats


def group_stats(games: Iterable[tuple[Story, Iterable[int]]]) -> GroupStats:
    """`games`: each finished game's story with the identities who played it."""
    stats = GroupStats()
    for story, identities in games:
        stats.games[story.ruleset] += 1
        for side in {p.side for p in story.players}:  # a side's rate is per game, not seat
            stats.played[(story.ruleset, side)] += 1
            stats.wins[(story.ruleset, side)] += side in story.winners
        for identity in set(identities):
            stats.active[identity] += 1
    return stats
