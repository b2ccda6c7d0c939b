"""Flavour variants drawn from a per-game shuffle bag, so that a game never repeats one before
its list is spent, and may be told what the moment rules out.

Drawing with replacement told the same day opener on six of thirteen days; a bag per list
tells each variant once per round. The bags live in the game state (`GameState.bags`, keyed by
the list's first msgid) and each round's order is chosen by the game's seed (`_round`), so
that a replay draws the same way. A bag is a list: the round's number, the variant drawn last (-1
before the first draw), then the round's variants still to come, drawn from the end; the
variant that closed a round is never the one that opens the next.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence

from .state import GameState


def draw(state: GameState, key: str, count: int, avoid: Collection[int] = ()) -> int:
    """The index of the next variant of a list of `count` known by `key`: the bag's next one
    that is not in `avoid` (what the moment rules out: a motif just told, a character who has
    left). When every variant left in this round is ruled out, one the moment allows is taken
    from the whole list (context comes before variety) and the round goes on without it.
    (The common case, a round under way and nothing ruled out, is the few steps here: every
    narration of every game draws.)"""
    bag = state.bags.get(key)
    if bag is None or len(bag) == 2:
        bag = _next_round(state, key, count, bag)
    if avoid:
        return _avoiding(bag, count, avoid)
    drawn = bag[1] = bag.pop()
    return drawn


def _next_round(state: GameState, key: str, count: int, bag: list[int] | None) -> list[int]:
    """The bag with its next round put in (a new bag before the list's first draw)."""
    if bag is None:
        bag = state.bags[key] = [0, -1]
    bag[0] += 1
    bag.extend(_round(state.seed, key, bag[0], count, bag[1]))
    return bag


def _avoiding(bag: list[int], count: int, avoid: Collection[int]) -> int:
    """`draw` with variants ruled out: the last of the round's left that is not."""
    at = len(bag) - 1
    while at > 1 and bag[at] in avoid:
        at -= 1
    if at == 1:
        allowed = [i for i in range(count) if i not in avoid]
        if allowed:
            bag[1] = allowed[bag[0] % len(allowed)]
            return bag[1]
        at = len(bag) - 1
    bag[1] = bag.pop(at)
    return bag[1]


def _round(seed: int, key: str, number: int, count: int, last: int) -> Sequence[int]:
    """One round of a bag, in the order it is drawn from the end: one of the orders made for
    lists of `count` (`_orders`), chosen by a hash of the game's seed, the list and the
    round. Never the game's generator, whose draws decide the game: a text added to a list
    changes no game's outcome. (Small integers throughout, each step on Python's short path:
    a blake2b of seed, list and round with its bytes sorted cost 2 to 3 % of a game in
    valgrind, nearly all at the first draw of every list of every game.)"""
    keyed = _KEY_HASHES.get(key)
    if keyed is None:
        keyed = _key_hash(key)
    x = (seed ^ (seed >> 15) ^ keyed ^ number * 0x9E3) & 0x7FFF
    x = ((x ^ (x >> 8)) * 0x6F4F) & 0x7FFF
    x = ((x ^ (x >> 7)) * 0x2D35) & 0x7FFF
    order = (_ORDERS.get(count) or _orders(count))[(x ^ (x >> 8)) & 63]
    if count > 1 and order[-1] == last:
        return (last, *order[1:-1], order[0])  # the round's first and last swapped
    return order


_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {}  # by a list's length
_KEY_HASHES: dict[str, int] = {}  # by a list's key


def _orders(count: int) -> tuple[tuple[int, ...], ...]:
    """64 orders of `count` indices, the same in every process: Fisher-Yates shuffles driven
    by SplitMix64 from the count (made once per length a process draws from)."""
    state, found = count, []
    for _ in range(64):
        order = list(range(count))
        for i in range(count - 1, 0, -1):
            state = (state + 0x9E3779B97F4A7C15) & _M64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
            j = (z ^ (z >> 31)) % (i + 1)
            order[i], order[j] = order[j], order[i]
        found.append(tuple(order))
    _ORDERS[count] = result = tuple(found)
    return result


def _key_hash(key: str) -> int:
    """A list's key as a 15-bit number, the same in every process (`hash` of a string is
    salted per process), remembered in `_KEY_HASHES`."""
    found = _KEY_HASHES[key] = int.from_bytes(
        hashlib.blake2b(key.encode(), digest_size=2).digest(), "little") & 0x7FFF
    return found


_M64 = (1 << 64) - 1


#: a flavour text's motifs, by its msgid: the images it shares with texts of other lists
#: ("sun", "wakes"), or what it takes for granted ("loss": somebody died tonight)
Motifs = Mapping[str, frozenset[str]]
_NONE: frozenset[str] = frozenset()


def clashing(variants: Sequence[str], told: str | None, motifs: Motifs) -> frozenset[int]:
    """The indices of `variants` that share a motif with `told` (an untagged text shares
    none): what an opener drawn after `told` must avoid."""
    mine = motifs.get(told, _NONE) if told is not None else _NONE
    if not mine:
        return _NONE_INT
    return frozenset(i for i, text in enumerate(variants) if mine & motifs.get(text, _NONE))


def tagged(variants: Sequence[str], motif: str, motifs: Motifs) -> frozenset[int]:
    """The indices of `variants` that carry `motif` (to rule a whole motif out: a loss
    mourned after a night without deaths)."""
    return frozenset(i for i, text in enumerate(variants) if motif in motifs.get(text, _NONE))


_NONE_INT: frozenset[int] = frozenset()


class Openers:
    """A list of day openers drawn after a dawn's text: what each dawn and mood rules out
    (`clashing` its motifs, `tagged` the mood that does not fit), worked out once per pair
    and remembered, not at every day of every game."""

    __slots__ = ("_motifs", "_ruled_out", "texts")

    def __init__(self, texts: Sequence[str], motifs: Motifs) -> None:
        self.texts = texts
        self._motifs = motifs
        self._ruled_out: dict[tuple[str | None, str], frozenset[int]] = {}

    def ruled_out(self, dawn: str | None, unfit: str) -> frozenset[int]:
        """The openers that must not follow `dawn` (None: no dawn text told) nor carry the
        motif `unfit` ("loss" after a quiet night, "calm" after one with losses)."""
        key = (dawn, unfit)
        found = self._ruled_out.get(key)
        if found is None:
            found = self._ruled_out[key] = clashing(self.texts, dawn, self._motifs) | \
                tagged(self.texts, unfit, self._motifs)
        return found
