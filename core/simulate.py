"""Many random legal games through the real engine: balance statistics and speed.

The random players are generic: they use whatever the rule set offers each player in the open
window (`Ruleset.abilities`), so the same driver plays every rule set. Harmful choices lean
towards one shared target per window, so teams that must agree (CH-AGREE) often do.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from core.engine import Act, Close, Game, GameSetup, Refused, Vote
from core.engine.events import PhaseBegan
from core.engine.ids import PASS, PlayerId, RoleId
from core.engine.phase import PhaseKind
from core.engine.ruleset import Ruleset
from core.heap import freeze_long_lived
from core.interval import wilson

MAX_WINDOWS = 400  # a game that has not ended by then is reported as stuck
# read as a global: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and this is asked in every window
_DAY, _ENDED = PhaseKind.DAY, PhaseKind.ENDED


@dataclass
class Report:
    ruleset: str
    players: int
    games: int
    seconds: float
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    days_total: int = 0
    stuck: int = 0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def lines(self) -> list[str]:
        out = [f"{self.games} games of {self.ruleset} with {self.players} players"]
        for side_id, won in sorted(self.wins.items()):
            low, high = wilson(won, self.games)
            out.append(f"  {side_id:<12} {won / self.games:6.1%}  "
                       f"(95% CI {low:.1%}–{high:.1%})")
        out.append(f"  {'draw':<12} {self.draws / self.games:6.1%}")
        if self.stuck:
            out.append(f"  stuck games: {self.stuck}")
        out.append(f"  average days: {self.days_total / self.games:.2f}")
        out.append(f"  {self.games_per_second:.0f} games per second")
        return out


def new_game(ruleset: Ruleset, players: int, seed: int,
             roles: tuple[RoleId, ...] | None = None, **options: object) -> Game:
    """A game of `players` seats p1, p2, …: the host's `roles` (one per seat, in seat order) or
    the rule set's deal; the windows run to their deadlines unless an option says otherwise."""
    setup = GameSetup(
        ruleset=ruleset.id,
        players=tuple((PlayerId(f"p{i}"), f"Player{i}") for i in range(1, players + 1)),
        seed=seed,
        roles=roles,
        options=tuple({"early_close": False, **options}.items()),
    )
    return Game(ruleset, setup)


def drive_window(game: Game, rng: random.Random,
                 on_apply: Callable[[object], None] | None = None) -> None:
    """Let every player who can do something in the open window do something random."""
    ruleset = game.ruleset
    state = game.state
    living = state.living_ids()
    focus = rng.choice(living) if living else None
    chance, choice = rng.random, rng.choice  # looked up once: drawn for every player

    def attempt(command: object) -> None:
        try:
            game.apply(command)  # type: ignore[arg-type]
        except Refused:
            return
        if on_apply is not None:
            on_apply(command)

    if ruleset.voting_open(game):
        for pid in living:
            attempt(Vote(pid, focus if chance() < 0.5 else choice(living)))
    if state.phase.kind == _DAY and not state.reactions:
        return  # by day only votes (and owed reactions) matter to the random players
    actors = [p for p in state.players.values() if p.alive]
    actors += [state.players[o.player] for o in state.reactions[:1]]
    for p in actors:
        for spec in ruleset.offers(game, p):
            if spec.id == PASS or chance() < 0.25:
                continue
            if spec.targets > len(living):
                continue
            targets = ((choice(living),) if spec.targets == 1
                       else tuple(rng.sample(living, spec.targets)))
            if spec.harmful and spec.targets == 1 and focus and chance() < 0.7:
                targets = (focus,)
            role_id = choice(sorted(ruleset.roles)) if spec.takes_role else None
            attempt(Act(p.pid, spec.id, targets, None, role_id))


def play_random_game(ruleset: Ruleset, players: int, seed: int,
                     on_apply: Callable[[object], None] | None = None,
                     roles: tuple[RoleId, ...] | None = None,
                     options: Mapping[str, object] | None = None) -> Game:
    game = new_game(ruleset, players, seed, roles, **(options or {}))
    rng = random.Random(seed ^ 0x5EED)
    close = Close()  # commands are immutable: one deadline command serves every window
    for _ in range(MAX_WINDOWS):
        if game.state.phase.kind == _ENDED:
            break
        drive_window(game, rng, on_apply)
        if game.state.phase.kind == _ENDED:  # (a global: mypy narrows no attribute by it)
            break
        game.apply(close)
        if on_apply is not None:
            on_apply(close)
    return game


def simulate(ruleset: Ruleset, players: int, games: int, seed: int = 0) -> Report:
    freeze_long_lived(ruleset.id)
    report = Report(ruleset.id, players, games, 0.0)
    start = time.perf_counter()
    for i in range(games):
        game = play_random_game(ruleset, players, seed + i)
        winners = game.state.winners
        if winners is None:
            report.stuck += 1
        elif not winners:
            report.draws += 1
        else:
            report.wins.update(winners)
        report.days_total += days_played(game)
    report.seconds = time.perf_counter() - start
    return report


def days_played(game: Game) -> int:
    """The number of the game's last day (its phase's, or the last one begun if it ended)."""
    number = game.state.phase.number
    if number:
        return int(number)
    for _command, outcome in reversed(game.log):
        for event in outcome.events:
            if isinstance(event, PhaseBegan) and event.phase.kind != _ENDED:
                return int(event.phase.number)
    return 1
