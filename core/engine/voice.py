"""A rule set's voice for the core's prompts: several variants of one text, picked so that a
player does not read the same words every night, and picked the same way on every replay.

A rule set's `voice` maps a prompt's name (`PROMPTS`: the service's "Your choice: {action}."
is `ACTION_PROMPT`, the engine's `NOTED` is `NOTED`) to its own variants: msgids of its own
catalog, with the core text's placeholders. The pick is a stable hash of the prompt and who
reads it (never the game's random generator, whose draws decide the game), turned on by the
night or day number, so that consecutive nights show different variants.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from enum import StrEnum
from functools import lru_cache

from .ids import ActionId
from .phase import Phase


class Voiced(StrEnum):
    """A core prompt a rule set may voice, by the name its voice gives it (the value, which
    the rule sets' voices are keyed by). The text is named wherever it is told, never
    recognised by its words."""

    # `PROMPTS` (the service's texts of these names in core/service/messages/texts.py, and
    # the engine's NOTED)
    ACTION_PROMPT = "ACTION_PROMPT"
    PICK_FIRST = "PICK_FIRST"
    PICK_NEXT = "PICK_NEXT"
    PICK_ROLE = "PICK_ROLE"
    CHOICE_ACTION_ON = "CHOICE_ACTION_ON"
    CHOICE_ACTION = "CHOICE_ACTION"
    CHOICE_PAIR = "CHOICE_PAIR"
    CHOICE_PASS = "CHOICE_PASS"
    CHOICE_OPEN = "CHOICE_OPEN"
    NOTED = "NOTED"
    VOTE_PROMPT = "VOTE_PROMPT"
    REMIND_VOTE = "REMIND_VOTE"
    REMIND_CHOICE = "REMIND_CHOICE"
    # `EXTRA_PROMPTS`
    PROMPT_TAKEN = "PROMPT_TAKEN"
    CHOICES_CLOSED = "CHOICES_CLOSED"
    VOTE_CLOSED = "VOTE_CLOSED"


#: the prompts a rule set voices: those a player reads every night or day
PROMPTS = (Voiced.ACTION_PROMPT, Voiced.PICK_FIRST, Voiced.PICK_NEXT, Voiced.PICK_ROLE,
           Voiced.CHOICE_ACTION_ON, Voiced.CHOICE_ACTION, Voiced.CHOICE_PAIR,
           Voiced.CHOICE_PASS, Voiced.CHOICE_OPEN, Voiced.NOTED, Voiced.VOTE_PROMPT,
           Voiced.REMIND_VOTE, Voiced.REMIND_CHOICE)

#: what the service tells at every window's close and for a pressed ballot button (the notice
#: for a taken vote): a rule set may voice these too; one that
#: does not keeps the core's text (core/service/messages/texts.py)
EXTRA_PROMPTS = (Voiced.PROMPT_TAKEN, Voiced.CHOICES_CLOSED, Voiced.VOTE_CLOSED)

#: prompt name -> the rule set's variants of it
Voice = Mapping[str, Sequence[str]]


def for_action(prompt: Voiced, action: ActionId) -> str:
    """The key of a prompt's variants for one action: a two-name action whose names play
    different parts (envy's copy: whose ability, then on whom) says which name is which,
    where the prompt's own variants can only say "the first" and "the second"."""
    return f"{prompt}/{action}"


def pick(voice: Voice, name: str, default: str, turn: int, *reader: object) -> str:
    """One variant of the prompt `name` in this voice (`default`, the core's text, where the
    voice has none): the reader (a game, a player, a stage …) fixes where the rotation
    starts, `turn` (the night or day number) moves it on by one."""
    variants = voice.get(name)
    if not variants:
        return default
    return variants[(_start(name, reader) + turn) % len(variants)]


@lru_cache(maxsize=8192)
def _start(name: str, reader: tuple[object, ...]) -> int:
    """Where the rotation of this prompt starts for this reader: a stable hash of the parts'
    words (`_hashed`), remembered (readers are ids, kinds and stages)."""
    return _hashed("\x1f".join(str(part) for part in (name, *reader)))


def _hashed(words: str) -> int:
    return int.from_bytes(hashlib.blake2b(words.encode(), digest_size=4).digest(), "big")


class Prompt:
    """One prompt of a voice as the engine tells it to each player: the variant `pick` would
    give for the reader (player, phase kind, stage) and the phase's number, with what every
    call shares worked out once: the variants and their number, and each reader's start kept
    in nested plain dicts by kind, stage and player. Asked at every "Noted" of every game and
    for every word of a team's proposal, so it is three subscripts with the phase's own
    strings (a flat key of five, built, hashed and compared at every call, cost some 1 % of a
    changelings game in valgrind). The start kept is already reduced by the number of
    variants (the same turn: (start + n) % count == (start % count + n) % count), so that the
    sum stays a small integer: `_start` is a 32-bit hash, and Python adds and divides such an
    int through its slower multi-digit path."""

    __slots__ = ("_count", "_name", "_size", "_starts", "_variants")

    def __init__(self, voice: Voice, name: str, default: str) -> None:
        self._name = name
        self._variants = tuple(voice.get(name) or ()) or (default,)  # the core's text if none
        self._count = len(self._variants)
        self._starts: dict[str, dict[str, dict[str, int]]] = {}
        self._size = 0

    def told(self, phase: Phase, pid: str) -> str:
        """The variant `pid` is told in `phase`."""
        try:
            start = self._starts[phase.kind][phase.stage][pid]
        except KeyError:
            start = self._start(phase, pid)
        return self._variants[(start + phase.number) % self._count]

    def _start(self, phase: Phase, pid: str) -> int:
        if self._size >= _STARTS_MAX:  # bounded as `_start` is (a service's many players)
            self._starts.clear()
            self._size = 0
        self._size += 1
        # `_start(name, (pid, kind, stage))`, its words joined as they are: all are strings
        # (a kind or a stage a `StrEnum`, whose text is its value, as `str` gives it)
        start = _hashed("\x1f".join((self._name, pid, phase.kind, phase.stage))) % self._count
        self._starts.setdefault(phase.kind, {}).setdefault(phase.stage, {})[pid] = start
        return start


_STARTS_MAX = 8192


def variants_of(voice: Voice, name: str, default: str) -> frozenset[str]:
    """Every text the prompt may be told as (to recognise any variant as that prompt)."""
    return frozenset((default, *voice.get(name, ())))
