"""The game's state and the helpers a rule set writes through while a command is applied:
events, messages, phases, votes counted, reactions owed. `Game` builds on it with applying
commands; nothing here calls a rule set back."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any, TypeVar

from .events import (
    Counted,
    Ended,
    Event,
    learned,
    make_event,
    phase_began,
)
from .ids import ActionId, PlayerId
from .messages import Audience, Message, Param, Purpose, Text
from .outcome import Outcome
from .phase import ENDED, Phase, Stage
from .state import GameState, Owed, canonical
from .variety import draw

# `Message` and `Text` are named tuples, made here for every message of every game: built
# with the tuple's own constructor, which skips the keyword-handling `__new__` of each
_new = tuple.__new__
# read as a global: in Python 3.11 an enum class's own `__getattr__` makes `X.MEMBER` cost
# more than ten times a global's read, and these are asked at every vote's count and at
# every narration (named where `**params` is passed on: mypy cannot tell it holds no purpose)
_REACTIONS, _PLAIN = Stage.REACTIONS, Purpose.PLAIN
V = TypeVar("V", str, tuple[str, str])


def _key(variants: Sequence[str] | Sequence[tuple[str, str]]) -> str:
    """A flavour list's bag key: its first msgid."""
    first = variants[0]
    return first if isinstance(first, str) else first[0]


class Table:
    """One game's state and the record of what the command being applied causes (`_out`)."""

    __slots__ = ()  # `Game` names its attributes' slots
    state: GameState
    _out: Outcome

    def record(self, event: Event) -> None:
        """Add a fact to the audit trail of the command being applied."""
        self._out.events.append(event)

    def event(self, kind: str, **data: Any) -> None:
        """Record an event of a declared kind by its name (see `events.make_event`)."""
        self._out.events.append(make_event(kind, data))

    def tell(self, audience: Audience, key: str, /, *, purpose: Purpose = Purpose.PLAIN,
             **params: Param) -> None:
        """Tell `audience` the text `key` with its parameters.

        The parameters before `/` are positional-only here and in the other helpers that take
        a text's parameters as keywords (`tell_n`, `narrate`, `Refused`...): Python matches
        each keyword against every parameter that may be given by name, by identity and then
        by comparing the strings, before it puts it in `**params`; positional-only ones it
        skips (valgrind: a tenth of a game's keyword matching, at every message told)."""
        self._out.messages.append(
            _new(Message, (audience, _new(Text, (key, params, None, None)), purpose)))

    def tell_n(self, audience: Audience, singular: str, plural: str, count: int, /, *,
               purpose: Purpose = Purpose.PLAIN, **params: Param) -> None:
        params["count"] = count
        self._out.messages.append(
            _new(Message, (audience, _new(Text, (singular, params, plural, count)), purpose)))

    def narrate(self, audience: Audience, variants: Sequence[str], /,
                **params: Param) -> None:
        """Tell one of several flavour texts, drawn from the game's shuffle bag for the list
        (`variety.draw`: none again before the list is spent, the same on a replay)."""
        key = variants[0] if len(variants) == 1 else \
            variants[draw(self.state, variants[0], len(variants))]
        self.tell(audience, key, purpose=_PLAIN, **params)

    def narrate_n(self, audience: Audience, variants: Sequence[tuple[str, str]], count: int,
                  /, **params: Param) -> None:
        """`narrate` for texts with plural forms (`n_` pairs): a list told with its count, so
        that the sentence agrees with one name or several; the same draw as `narrate`."""
        pair = variants[0] if len(variants) == 1 else \
            variants[draw(self.state, variants[0][0], len(variants))]
        self.tell_n(audience, pair[0], pair[1], count, purpose=_PLAIN, **params)

    def variant(self, variants: Sequence[V], avoid: Collection[int] = ()) -> V:
        """The next variant of a flavour list (of msgids, or of `n_` pairs), with what the
        moment rules out (`avoid`, by index): for a text chosen knowing the outcome, or
        drawn together with another."""
        return variants[draw(self.state, _key(variants), len(variants), avoid)]

    def last_variant(self, variants: Sequence[V]) -> V | None:
        """The variant of this list drawn last (None before the first draw): what a text
        drawn next must not echo."""
        bag = self.state.bags.get(_key(variants))
        return variants[bag[1]] if bag is not None and bag[1] >= 0 else None

    @property
    def rng(self) -> random.Random:
        return self.state.rng

    def set_phase(self, phase: Phase) -> None:
        s = self.state
        s.phase = phase
        s.acted = set()
        self._out.events.append(phase_began(phase))  # `record`, written out: every window

    def end(self, winners: Sequence[str]) -> None:
        self.state.winners = list(winners)
        self.set_phase(ENDED)
        self.record(Ended(tuple(winners)))

    def learn(self, observer: PlayerId, subject: PlayerId, value: str) -> None:
        self.state.learned.setdefault(observer, {})[subject] = value
        self._out.events.append(learned(observer, subject, value))  # `record`, written out

    def tally(self) -> dict[PlayerId, int]:
        """Weighted votes per living player (0 for those with none), plus extra weights.

        In a day's reactions window the vote is closed: its deciding count (penalties
        included) is what stands, for the players still in the game."""
        s = self.state
        if s.phase.stage == _REACTIONS:
            return {p.pid: s.closed_count.get(p.pid, 0) for p in s.players.values() if p.alive}
        counts = {p.pid: 0 for p in s.players.values() if p.alive}
        for voter, target in s.votes.items():
            if target in counts:  # votes for a player who has left are dropped
                counts[target] += s.vote_weights.get(voter, 1)
        for target, extra in s.vote_extra.items():
            if target in counts:
                counts[target] += extra
        return counts

    def counted(self, votes: dict[PlayerId, int]) -> dict[PlayerId, int]:
        """Record the count that decides a vote as a `counted` event (the platforms show it
        as the ballot's final state, penalties and extra weights included); returns it."""
        self.record(Counted(dict(votes)))
        self.state.closed_count = dict(votes)
        return votes

    def owe(self, kind: ActionId, pid: PlayerId, options: Sequence[PlayerId], rank: int) -> None:
        s = self.state
        s.reactions.append(Owed(kind, pid, tuple(options), rank, s.next_seq()))
        s.reactions.sort(key=lambda o: (o.rank, o.seq))

    def current_owed(self) -> Owed | None:
        return self.state.reactions[0] if self.state.reactions else None

    def snapshot(self) -> Any:
        return canonical(self.state)

    def name(self, pid: PlayerId) -> str:
        return self.state.players[pid].name
