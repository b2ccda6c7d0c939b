"""A custom table estimated on demand in a worker process: the simulated games run beside
the bot (or the command line) rather than in it, report their progress as they go, and are
stopped if they overrun. A finished answer of the informed players is kept for the same
question (rule set, roles, options, skill, agents' version), so a host who asks twice
waits once.

The worker is started with `spawn`: a fork of a running bot would copy its event loop,
threads and open connections into a process that must only simulate."""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import assert_never

from .advice import Advice, advise
from .presets import Assumed
from .runs import agent_version, player
from .setups import Setup
from .tables import shipped
from .tally import Players

SECONDS = 30.0  # a host waits this long at most (issue 34)
MARGIN = 3.0  # of it, for the worker's start and the chunk that runs past the deadline
GRACE = 15.0  # the worker's start and its last batch, before it is stopped from outside
Question = tuple[str, str, Assumed, str]
_answers: dict[Question, Advice | None] = {}


@dataclass(frozen=True, slots=True)
class Progress:
    """The worker's word on the way: the share of the work done."""

    done: float


@dataclass(frozen=True, slots=True)
class Answered:
    """The worker's last word: its advice (None: none could be given)."""

    advice: Advice | None


Said = Progress | Answered  # what the worker sends through its pipe


def _question(setup: Setup, skill: Assumed) -> Question:
    return setup.ruleset, setup.key(), skill, agent_version()


def remembered(setup: Setup, skill: Assumed) -> tuple[bool, Advice | None]:
    """(whether this question was answered before, its answer)."""
    key = _question(setup, skill)
    return key in _answers, _answers.get(key)


def _run(conn: Connection, setup: Setup, skill: Assumed, seconds: float, seed: int,
         players_play: Players) -> None:
    """In the worker: the advice, its progress sent as fractions, then the answer."""
    advice = advise(setup, skill, shipped(setup.ruleset), player(players_play),
                    seconds=max(1.0, seconds - MARGIN), seed=seed,
                    stage=lambda done: conn.send(Progress(done)))
    conn.send(Answered(advice))
    conn.close()


class Job:
    """One on-demand estimate in its own process; `poll` it (never blocks) until `done`."""

    def __init__(self, setup: Setup, skill: Assumed, seconds: float = SECONDS,
                 seed: int = 0, players_play: Players = Players.INFORMED) -> None:
        self.setup, self.skill, self.players_play = setup, skill, players_play
        self.progress = 0.0
        self.done = False
        self.advice: Advice | None = None
        self._stop_at = time.monotonic() + seconds + GRACE
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe(duplex=False)
        self._process = context.Process(target=_run, daemon=True, args=(
            child, setup, skill, seconds, seed, players_play))
        self._process.start()
        child.close()

    def poll(self) -> bool:
        """Read what the worker said; True once the job is over (answered or stopped)."""
        try:
            while not self.done and self._conn.poll():
                self._take(self._conn.recv())
        except EOFError:  # the worker ended without an answer
            self._finish(None)
        if not self.done and time.monotonic() > self._stop_at:
            self._finish(None)
        return self.done

    def _take(self, said: Said) -> None:
        match said:
            case Progress(done):
                self.progress = float(done)
            case Answered(advice):
                self._finish(advice)
                if self.players_play is Players.INFORMED:
                    _answers[_question(self.setup, self.skill)] = advice
            case _:
                assert_never(said)

    def _finish(self, advice: Advice | None) -> None:
        self.done, self.advice = True, advice
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(timeout=5)
        self._conn.close()

    def wait(self, tick: float = 0.2) -> Advice | None:
        """Block until the job is over."""
        while not self.poll():
            time.sleep(tick)
        return self.advice
